import { errAsync, okAsync, ResultAsync } from 'neverthrow'
import { notFound, type Actor, type NotFound } from '../shared'
import { ownEndpoint } from './get-webhook-endpoint'
import type { IntegrationsDeps } from './ports'
import type { WebhookDelivery } from './webhooks'

/**
 * `POST /api/webhook-endpoints/{id}/deliveries/{delivery_id}/retry`: the delivery is due now,
 * whatever its status (a failed one gets one more attempt, a succeeded one is sent again),
 * with the same `webhook-id` and body.
 */
export function retryWebhookDelivery(
  deps: Pick<IntegrationsDeps, 'uow' | 'clock'>,
  actor: Actor,
  input: { endpointId: number; deliveryId: number },
): ResultAsync<WebhookDelivery, NotFound> {
  const { webhookDeliveries } = deps.uow.repos
  return ownEndpoint(deps.uow.repos.webhookEndpoints, actor, input.endpointId)
    .andThen((endpoint) => ResultAsync.fromSafePromise(webhookDeliveries.findById(endpoint.id, input.deliveryId)))
    .andThen((delivery) => (delivery ? okAsync(delivery) : errAsync(notFound('webhook delivery'))))
    .andThen((delivery) => ResultAsync.fromSafePromise(webhookDeliveries.retryNow(delivery.id, deps.clock.now())))
}
