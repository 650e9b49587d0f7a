import { ResultAsync } from 'neverthrow'
import type { Actor, PageOf, PageRequest } from '../shared'
import type { IntegrationsDeps } from './ports'
import type { WebhookEndpoint } from './webhooks'

/** `GET /api/webhook-endpoints`: the caller's own, oldest first. */
export function listWebhookEndpoints(deps: Pick<IntegrationsDeps, 'uow'>, actor: Actor, page: PageRequest): ResultAsync<PageOf<WebhookEndpoint>, never> {
  return ResultAsync.fromSafePromise(deps.uow.repos.webhookEndpoints.listByOwner(actor.id, page))
}
