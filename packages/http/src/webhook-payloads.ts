import type { WebhookPayloads, WebhookSubject } from '@tutoring/domain/integrations'
import type { Services } from '@tutoring/adapters'
import { bookingWebhookData } from './booking'
import { endpointWebhookData, type WebhookData } from './integrations'
import { reviewWebhookData } from './reviews'

/**
 * What each webhook carries, by what its event names: each room presents its own resource as
 * the API answers it, so a payload is the wire shape a client already knows. The worker
 * (background-jobs.ts) builds a delivery's body with it on the first attempt.
 */
export function webhookPayloads(services: Services): WebhookPayloads {
  const byKind: Record<WebhookSubject['kind'], WebhookData> = {
    booking: bookingWebhookData(services),
    review: reviewWebhookData(services),
    endpoint: endpointWebhookData(services),
  }
  return { render: (type, subject, owner) => byKind[subject.kind](type, subject.id, owner) }
}
