import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import nodemailer from 'nodemailer'

export type MailMessage = { to: string; subject: string; text: string; html: string }

export interface Mailer {
  readonly kind: 'smtp' | 'folder'
  send(message: MailMessage & { messageId: string }): Promise<void>
  close(): void
}

/** SMTP delivery for a real installation (`SMTP_URL`, e.g. smtp://user:pass@host:587). */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url)
  return {
    kind: 'smtp',
    async send({ messageId, ...message }) {
      await transport.sendMail({ from, ...message, messageId })
    },
    close: () => transport.close(),
  }
}

/** The embedded default: each email becomes one `.eml` file under DATA_DIR/mail. */
export function folderMailer(dir: string, from: string): Mailer {
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
  return {
    kind: 'folder',
    async send({ messageId, ...message }) {
      const info = await builder.sendMail({ from, ...message, messageId })
      await mkdir(dir, { recursive: true })
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${messageId.replace(/[^A-Za-z0-9.-]/g, '_')}.eml`
      await writeFile(path.join(dir, name), info.message as Buffer)
    },
    close: () => builder.close(),
  }
}
