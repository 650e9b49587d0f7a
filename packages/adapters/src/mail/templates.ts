import type { MailMessage } from './mailer'

type Rendered = Omit<MailMessage, 'to'>
type Data = Record<string, unknown>
type Template = (data: Data) => { subject: string; lines: string[]; link?: { label: string; url: string } }

const str = (value: unknown): string => (value === undefined || value === null ? '' : String(value))

/** One entry per email the service sends; the outbox names them by key. */
const TEMPLATES: Record<string, Template> = {
  verify_email: (d) => ({
    subject: 'Confirm your email address',
    lines: [`Hello ${str(d.firstname)},`, 'Please confirm your email address to finish setting up your account.'],
    link: { label: 'Confirm email', url: str(d.verifyUrl) },
  }),
  registered_internal: (d) => ({
    subject: `New registration: ${str(d.name)}`,
    lines: [`User ${str(d.userId)} (${str(d.email)}) registered with role ${str(d.roleId)}.`],
  }),
  reset_password: (d) => ({
    subject: 'Reset your password',
    lines: [
      `Hello ${str(d.firstname)},`,
      `Someone asked to reset your password. The link works for ${str(d.expiresInMinutes)} minutes.`,
      'If it was not you, ignore this email.',
    ],
    link: { label: 'Choose a new password', url: str(d.resetUrl) },
  }),
  user_deleted: (d) => ({
    subject: `Account deleted: ${str(d.email)}`,
    lines: [`User ${str(d.userId)} (${str(d.name)}, ${str(d.email)}) deleted their account at ${str(d.deletedAt)}.`],
  }),
  tutor_id_verification_status_updated: (d) => ({
    subject: `Tutor verification ${str(d.kind)}: ${str(d.status)} (user ${str(d.userId)})`,
    lines: [
      `The ${str(d.kind)} verification of tutor ${str(d.userId)} (${str(d.name)}, ${str(d.email)}) is now ${str(d.status)}; it was ${str(d.previousStatus)}.`,
      `Provider reference: ${str(d.reference)}.`,
    ],
  }),
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

export function renderEmail(template: string, data: Data): Rendered {
  const build = TEMPLATES[template]
  if (!build) throw new Error(`no email template named ${template}`)
  const { subject, lines, link } = build(data)
  const text = [...lines, ...(link ? ['', `${link.label}: ${link.url}`] : [])].join('\n')
  const html = [
    ...lines.map((l) => `<p>${escapeHtml(l)}</p>`),
    ...(link ? [`<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`] : []),
  ].join('\n')
  return { subject, text, html }
}

export const hasEmailTemplate = (template: string): boolean => template in TEMPLATES
