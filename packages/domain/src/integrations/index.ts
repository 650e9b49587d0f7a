export { createWebhookEndpoint, type WebhookEndpointInput } from './create-webhook-endpoint'
export { deleteWebhookEndpoint } from './delete-webhook-endpoint'
export { deliverWebhooks, ENDPOINT_DISABLED_TEMPLATE, webhookDispatcher, type WebhookWorkerDeps } from './deliver-webhooks'
export { getWebhookEndpoint } from './get-webhook-endpoint'
export { listWebhookDeliveries } from './list-webhook-deliveries'
export { listWebhookEndpoints } from './list-webhook-endpoints'
export type {
  DeliveryOutcome,
  EndpointUrlCheck,
  IntegrationEvents,
  IntegrationsDeps,
  IntegrationsRepos,
  NewWebhookEndpoint,
  SecretGenerator,
  SendResult,
  WebhookDeliveryRepository,
  WebhookEndpointPatch,
  WebhookEndpointRepository,
  WebhookPayloads,
  WebhookSender,
} from './ports'
export { DELIVERY_TIMEOUT_MS, DISABLE_AFTER_FAILING_MS, RETRY_WINDOW_MS } from './retry-schedule'
export { retryWebhookDelivery } from './retry-webhook-delivery'
export { rotateWebhookSecret } from './rotate-webhook-secret'
export { sendTestWebhook } from './send-test-webhook'
export { updateWebhookEndpoint, type WebhookEndpointChange } from './update-webhook-endpoint'
export {
  type ClaimedDelivery,
  type DeliveryStatus,
  isWebhookEventType,
  MAX_WEBHOOK_ENDPOINTS,
  type WebhookDelivery,
  type WebhookEndpoint,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
  type WebhookSubject,
} from './webhooks'
