export { webhooksFromConfig, webhookSecrets } from './integrations.infrastructure'
export { webhookSender } from './webhook-sender'
