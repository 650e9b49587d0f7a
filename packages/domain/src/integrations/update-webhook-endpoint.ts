import { err, ok, ResultAsync } from 'neverthrow'
import type { Actor, NotFound, ValidationFailed } from '../shared'
import { checkEndpointFields } from './endpoint-input'
import { ownEndpoint } from './get-webhook-endpoint'
import type { IntegrationsDeps, WebhookEndpointPatch } from './ports'
import type { WebhookEndpoint } from './webhooks'

export type WebhookEndpointChange = { url?: string; events?: string[]; description?: string | null; enabled?: boolean }

/**
 * `PUT /api/webhook-endpoints/{id}`: the owner changes what is given. Enabling an endpoint
 * again starts its count of failing days afresh, and its waiting deliveries go out.
 */
export function updateWebhookEndpoint(
  deps: Pick<IntegrationsDeps, 'uow' | 'urls'>,
  actor: Actor,
  input: { id: number; change: WebhookEndpointChange },
): ResultAsync<WebhookEndpoint, NotFound | ValidationFailed> {
  return ownEndpoint(deps.uow.repos.webhookEndpoints, actor, input.id).andThen((endpoint) =>
    ResultAsync.fromSafePromise(checkEndpointFields(deps.urls, input.change)).andThen((checked) => {
      if (checked.isErr()) return err(checked.error)
      const { url, description, enabled } = input.change
      const patch: WebhookEndpointPatch = { url, description, enabled, events: checked.value.events }
      if (enabled === true && !endpoint.enabled) patch.failingSince = null
      return ok(patch)
    }).andThen((patch) => ResultAsync.fromSafePromise(deps.uow.repos.webhookEndpoints.update(endpoint.id, patch))),
  )
}
