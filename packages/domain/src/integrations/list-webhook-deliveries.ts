import { ResultAsync } from 'neverthrow'
import type { Actor, NotFound, PageOf, PageRequest } from '../shared'
import { ownEndpoint } from './get-webhook-endpoint'
import type { IntegrationsDeps } from './ports'
import type { WebhookDelivery } from './webhooks'

/** `GET /api/webhook-endpoints/{id}/deliveries`: the endpoint's delivery log, newest first. */
export function listWebhookDeliveries(
  deps: Pick<IntegrationsDeps, 'uow'>,
  actor: Actor,
  input: { endpointId: number; page: PageRequest },
): ResultAsync<PageOf<WebhookDelivery>, NotFound> {
  return ownEndpoint(deps.uow.repos.webhookEndpoints, actor, input.endpointId).andThen((endpoint) =>
    ResultAsync.fromSafePromise(deps.uow.repos.webhookDeliveries.listByEndpoint(endpoint.id, input.page)),
  )
}
