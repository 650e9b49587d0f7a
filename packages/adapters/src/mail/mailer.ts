import { mkdir, rename, writeFile } from 'node:fs/promises'
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

/**
 * The embedded default: each email becomes one `.eml` file under DATA_DIR/mail, named by its
 * Message-ID. The outbox delivers at least once (a worker killed between sending and
 * recording it sends again); the same name makes a repeat replace the first copy instead of
 * adding a second, and writing beside it then renaming means no reader sees half a message.
 */
export function folderMailer(dir: string, from: string): Mailer {
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
  return {
    kind: 'folder',
    async send({ messageId, ...message }) {
      const info = await builder.sendMail({ from, ...message, messageId })
      await mkdir(dir, { recursive: true })
      const name = `${messageId.replace(/[^A-Za-z0-9.-]/g, '_')}.eml`
      const partial = path.join(dir, `.${name}.${process.pid}.partial`)
      await writeFile(partial, info.message as Buffer)
      await rename(partial, path.join(dir, name))
    },
    close: () => builder.close(),
  }
}
