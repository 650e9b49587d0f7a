import { routeGroups } from '../platform/routes'
import { integrationWebhookDocs } from './integrations.webhooks'
import { webhookEndpointRoutes } from './webhook-endpoints.routes'

/** Integrators' webhook endpoints, their deliveries, and the webhooks they receive (OpenAPI 3.1 `webhooks`). */
export const routes = routeGroups(webhookEndpointRoutes, integrationWebhookDocs)
export { endpointWebhookData } from './integrations.webhooks'
export { describeWebhook, type WebhookData } from './webhook-payloads'
