import { err, ok, ResultAsync } from 'neverthrow'
import { fieldError, type Actor, type ValidationFailed } from '../shared'
import { checkEndpointFields } from './endpoint-input'
import type { IntegrationsDeps } from './ports'
import { MAX_WEBHOOK_ENDPOINTS, type WebhookEndpoint } from './webhooks'

export type WebhookEndpointInput = { url: string; events: string[]; description: string | null }

/**
 * `POST /api/webhook-endpoints`: any signed-in user registers an endpoint, at most ten, with
 * a fresh secret answered this once. The count is taken under the owner's lock, so ten
 * requests at once never make an eleventh.
 */
export function createWebhookEndpoint(
  deps: Pick<IntegrationsDeps, 'uow' | 'clock' | 'secrets' | 'urls'>,
  actor: Actor,
  input: WebhookEndpointInput,
): ResultAsync<WebhookEndpoint, ValidationFailed> {
  return new ResultAsync(
    (async () => {
      const fields = await checkEndpointFields(deps.urls, input)
      if (fields.isErr()) return err(fields.error)
      return deps.uow.run(async (repos) => {
        await repos.webhookEndpoints.lockOwner(actor.id)
        if ((await repos.webhookEndpoints.countByOwner(actor.id)) >= MAX_WEBHOOK_ENDPOINTS) {
          return err(fieldError('url', `at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints per user`))
        }
        const endpoint = await repos.webhookEndpoints.insert({
          ownerId: actor.id,
          url: input.url,
          events: fields.value.events ?? [],
          description: input.description,
          secret: deps.secrets.webhookSecret(),
          createdAt: deps.clock.now(),
        })
        return ok(endpoint)
      })
    })(),
  )
}
