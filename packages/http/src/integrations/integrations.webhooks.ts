import { getWebhookEndpoint } from '@tutoring/domain/integrations'
import type { Services } from '@tutoring/adapters'
import type { App } from '../platform/routes'
import { EndpointSchema, presentEndpoint } from './integrations.schemas'
import { describeWebhook, type WebhookData } from './webhook-payloads'

/** `webhook.test` carries the endpoint itself, as its owner reads it (secret null). */
export const endpointWebhookData =
  (services: Services): WebhookData =>
  async (_type, id, owner) => {
    const found = await getWebhookEndpoint(services.integrations, owner, id)
    return found.isOk() ? presentEndpoint(found.value) : { id }
  }

export function integrationWebhookDocs(app: App): void {
  describeWebhook(app, { type: 'webhook.test', summary: 'A test event (POST /api/webhook-endpoints/{id}/test)', data: EndpointSchema })
}
