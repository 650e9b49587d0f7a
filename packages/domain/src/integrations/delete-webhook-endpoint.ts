import { ResultAsync } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import { ownEndpoint } from './get-webhook-endpoint'
import type { IntegrationsDeps } from './ports'

/** `DELETE /api/webhook-endpoints/{id}`: the endpoint and its delivery log go; nothing more is sent to it. */
export function deleteWebhookEndpoint(deps: Pick<IntegrationsDeps, 'uow'>, actor: Actor, id: number): ResultAsync<void, NotFound> {
  return ownEndpoint(deps.uow.repos.webhookEndpoints, actor, id).andThen((endpoint) =>
    ResultAsync.fromSafePromise(deps.uow.repos.webhookEndpoints.delete(endpoint.id)),
  )
}
