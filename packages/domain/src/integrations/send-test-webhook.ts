import { ok, ResultAsync } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import { ownEndpoint } from './get-webhook-endpoint'
import type { IntegrationsDeps } from './ports'
import type { WebhookDelivery } from './webhooks'

/** `POST /api/webhook-endpoints/{id}/test`: a `webhook.test` event for this endpoint alone, whatever it subscribes to. */
export function sendTestWebhook(deps: Pick<IntegrationsDeps, 'uow' | 'clock'>, actor: Actor, id: number): ResultAsync<WebhookDelivery, NotFound> {
  return ownEndpoint(deps.uow.repos.webhookEndpoints, actor, id).andThen(
    (endpoint) =>
      new ResultAsync(
        deps.uow.run(async (repos) =>
          ok(await repos.integrationEvents.recordFor(endpoint.id, { type: 'webhook.test', subject: { kind: 'endpoint', id: endpoint.id }, at: deps.clock.now() })),
        ),
      ),
  )
}
