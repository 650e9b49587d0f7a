import type { MailMessage } from './mailer'

type Rendered = Omit<MailMessage, 'to'>
type Data = Record<string, unknown>
type Link = { label: string; url: string }
type Template = (data: Data) => { subject: string; lines: string[]; link?: Link; links?: Link[] }

/** A booking email's management link (view and cancel without logging in), when it carries one. */
const manage = (d: Data): Link[] => (d.manageUrl ? [{ label: 'View or cancel this booking', url: str(d.manageUrl) }] : [])

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
  lesson_reschedule: (d) => ({
    subject: `New time proposed for your ${str(d.subject)} lesson`,
    lines: [
      `Hello ${str(d.firstname)},`,
      `A new time is proposed for the ${str(d.subject)} lesson of ${str(d.start)}: ${str(d.suggestedStart)} to ${str(d.suggestedFinish)}.`,
      `Please answer before ${str(d.expiresAt)}; without an answer the lesson is cancelled and refunded in full.`,
    ],
    links: [{ label: 'Accept', url: str(d.acceptUrl) }, { label: 'Decline', url: str(d.declineUrl) }, ...manage(d)],
  }),
  outbox_failing: (d) => ({
    subject: `Outbox message ${str(d.outboxId)} (${str(d.topic)}) keeps failing`,
    lines: [
      `The ${str(d.kind).replace(/_/g, ' ')} ${str(d.topic)} (outbox ${str(d.outboxId)}) failed ${str(d.attempts)} times.`,
      `Last error: ${str(d.lastError)}`,
      `It stays queued and is tried again from ${str(d.retryAt)}, at most every 6 hours. \`tutoring outbox:failed\` lists such messages; \`tutoring outbox:retry ID\` tries one now.`,
    ],
  }),
  payment_stuck: (d) => ({
    subject: `Payment ${str(d.paymentId)} keeps failing to ${str(d.work)}`,
    lines: [
      `The ${str(d.work)} of payment ${str(d.paymentId)} (booking ${str(d.bookingId)}) failed ${str(d.attempts)} times in a row.`,
      `Last error: ${str(d.lastError)}`,
      `It is tried again from ${str(d.retryAt)}, with growing intervals, until it goes through.`,
    ],
  }),
  lesson_booked: (d) => ({
    subject: `Lesson booked: ${str(d.subject)} on ${str(d.start)}`,
    lines: [`Hello ${str(d.firstname)},`, `The ${str(d.subject)} lesson of ${str(d.tutorName)} and ${str(d.studentName)} is booked from ${str(d.start)} to ${str(d.finish)}.`],
    links: manage(d),
  }),
  lesson_reminder: (d) => ({
    subject: `Reminder: ${str(d.subject)} lesson ${str(d.leadTime)}, ${str(d.startLocal)}`,
    lines: [
      `Hello ${str(d.firstname)},`,
      `The ${str(d.subject)} lesson of ${str(d.tutorName)} and ${str(d.studentName)} starts ${str(d.leadTime)}: ${str(d.startLocal)} (${str(d.timeZone)}).`,
    ],
    links: manage(d),
  }),
  lesson_cancelled: (d) => ({
    subject: `Lesson cancelled: ${str(d.subject)} on ${str(d.start)}`,
    lines: [
      `Hello ${str(d.firstname)},`,
      `The ${str(d.subject)} lesson of ${str(d.tutorName)} and ${str(d.studentName)} from ${str(d.start)} is cancelled (${str(d.reason).replace(/_/g, ' ')}).`,
      ...(d.refund ? [`Refund: £${str(d.refund)}.`] : []),
    ],
  }),
  lesson_summary_note: (d) => ({
    subject: `Lesson notes: ${str(d.subject)} on ${str(d.start)}`,
    lines: [`Hello ${str(d.firstname)},`, `${str(d.tutorName)} wrote a note on your ${str(d.subject)} lesson.`, `Summary: ${str(d.summary)}`],
    links: manage(d),
  }),
  username_claimable: (d) => ({
    subject: `The username ${str(d.claimable)} is free`,
    lines: [
      `Hello ${str(d.firstname)},`,
      `When you registered, ${str(d.claimable)} was taken, so you were given ${str(d.username)}. It is free now: it is yours if you claim it first, before ${str(d.expiresAt)}.`,
    ],
    link: { label: `Claim ${str(d.claimable)}`, url: str(d.claimUrl) },
  }),
  tutor_id_verification_status_updated: (d) => ({
    subject: `Tutor verification ${str(d.kind)}: ${str(d.status)} (user ${str(d.userId)})`,
    lines: [
      `The ${str(d.kind)} verification of tutor ${str(d.userId)} (${str(d.name)}, ${str(d.email)}) is now ${str(d.status)}; it was ${str(d.previousStatus)}.`,
      `Provider reference: ${str(d.reference)}.`,
    ],
  }),
  payment_disputed: (d) => ({
    subject: `Charge disputed: booking ${str(d.bookingId)}`,
    lines: [
      `The charge of booking ${str(d.bookingId)} (payment ${str(d.paymentId)}) is disputed by the cardholder: £${str(d.amount)}, reason ${str(d.reason)}.`,
      `Dispute ${str(d.disputeId)} is ${str(d.status)}. Answer it at the processor before its deadline.`,
    ],
  }),
  payment_authentication_required: (d) => ({
    subject: `Please confirm the payment for your ${str(d.subject)} lesson`,
    lines: [
      `Hello ${str(d.firstname)},`,
      `Your bank wants you to confirm the payment for the ${str(d.subject)} lesson with ${str(d.tutorName)} on ${str(d.start)}.`,
      'Please confirm it before the lesson starts; otherwise the lesson is cancelled and nothing is taken.',
    ],
    link: { label: 'Confirm the payment', url: str(d.actionUrl) },
  }),
  payout_failed: (d) => ({
    subject: 'A payout to your bank account failed',
    lines: [
      `Hello ${str(d.firstname)},`,
      `Your payout of £${str(d.amount)} could not be paid into your bank account: ${str(d.reason)}.`,
      'Please check your bank details; the money stays in your account with us until a payout succeeds.',
    ],
  }),
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

export function renderEmail(template: string, data: Data): Rendered {
  const build = TEMPLATES[template]
  if (!build) throw new Error(`no email template named ${template}`)
  const built = build(data)
  const { subject, lines } = built
  const links = [...(built.link ? [built.link] : []), ...(built.links ?? [])]
  const text = [...lines, ...(links.length > 0 ? ['', ...links.map((link) => `${link.label}: ${link.url}`)] : [])].join('\n')
  const html = [
    ...lines.map((l) => `<p>${escapeHtml(l)}</p>`),
    ...links.map((link) => `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`),
  ].join('\n')
  return { subject, text, html }
}

export const hasEmailTemplate = (template: string): boolean => template in TEMPLATES
