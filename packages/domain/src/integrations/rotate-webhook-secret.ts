import { ResultAsync } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import { ownEndpoint } from './get-webhook-endpoint'
import type { IntegrationsDeps } from './ports'
import type { WebhookEndpoint } from './webhooks'

/**
 * `POST /api/webhook-endpoints/{id}/rotate-secret`: a new secret, answered this once. Every
 * attempt from now on is signed with it, retries of older events included.
 */
export function rotateWebhookSecret(deps: Pick<IntegrationsDeps, 'uow' | 'secrets'>, actor: Actor, id: number): ResultAsync<WebhookEndpoint, NotFound> {
  return ownEndpoint(deps.uow.repos.webhookEndpoints, actor, id).andThen((endpoint) =>
    ResultAsync.fromSafePromise(deps.uow.repos.webhookEndpoints.update(endpoint.id, { secret: deps.secrets.webhookSecret() })),
  )
}
