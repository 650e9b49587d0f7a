import path from 'node:path'
import type { Config } from '../config'
import { folderMailer, smtpMailer, type Mailer } from './mailer'

export * from './mailer'
export { renderEmail, hasEmailTemplate } from './templates'

/** SMTP when `SMTP_URL` is set, else `.eml` files under `DATA_DIR/mail`. */
export function mailerFromConfig(config: Config): Mailer {
  return config.SMTP_URL ? smtpMailer(config.SMTP_URL, config.MAIL_FROM) : folderMailer(path.join(config.DATA_DIR, 'mail'), config.MAIL_FROM)
}
