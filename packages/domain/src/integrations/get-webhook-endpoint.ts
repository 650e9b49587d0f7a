import { errAsync, okAsync, ResultAsync } from 'neverthrow'
import { notFound, type Actor, type NotFound } from '../shared'
import type { IntegrationsDeps, WebhookEndpointRepository } from './ports'
import type { WebhookEndpoint } from './webhooks'

/** An endpoint is its owner's alone: anyone else's is not found (staff included: it holds a secret). */
export const ownEndpoint = (endpoints: Pick<WebhookEndpointRepository, 'findById'>, actor: Actor, id: number): ResultAsync<WebhookEndpoint, NotFound> =>
  ResultAsync.fromSafePromise(endpoints.findById(id)).andThen((found) =>
    found && found.ownerId === actor.id ? okAsync(found) : errAsync(notFound('webhook endpoint')),
  )

/** `GET /api/webhook-endpoints/{id}`. */
export function getWebhookEndpoint(deps: Pick<IntegrationsDeps, 'uow'>, actor: Actor, id: number): ResultAsync<WebhookEndpoint, NotFound> {
  return ownEndpoint(deps.uow.repos.webhookEndpoints, actor, id)
}
