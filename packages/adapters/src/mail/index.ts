export * from './mailer'
export { renderEmail, hasEmailTemplate } from './templates'
