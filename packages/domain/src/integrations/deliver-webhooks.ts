import { ok } from 'neverthrow'
import type { IntegrationsDeps, SendResult, WebhookPayloads } from './ports'
import { DISABLE_AFTER_FAILING_MS, nextAttemptAfterFailure } from './retry-schedule'
import type { ClaimedDelivery } from './webhooks'

export type WebhookWorkerDeps = Pick<IntegrationsDeps, 'uow' | 'clock' | 'sender' | 'config'> & { payloads: WebhookPayloads }

/** The email an endpoint's owner gets when it is disabled. */
export const ENDPOINT_DISABLED_TEMPLATE = 'webhook_endpoint_disabled'

const isSuccess = (result: SendResult) => result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300

/**
 * One round of the webhook worker: claims what is due (several instances claim apart, a
 * claim lapses after the lease so a delivery whose sender died goes out again: at least
 * once), sends them side by side so no receiver waits on another, records each outcome, and
 * disables the endpoints failing for 5 days, emailing their owners.
 */
export async function deliverWebhooks(deps: WebhookWorkerDeps, limit = 20): Promise<{ succeeded: number; failed: number; disabled: number }> {
  const claimed = await deps.uow.repos.webhookDeliveries.claimDue(deps.clock.now(), limit, deps.config.leaseSeconds)
  // A delivery that throws (a bug, the database gone) is left to its lease; the others are recorded all the same.
  const outcomes = await Promise.allSettled(claimed.map((delivery) => attempt(deps, delivery)))
  const disabled = await disableFailingEndpoints(deps)
  const succeeded = outcomes.filter((o) => o.status === 'fulfilled' && o.value).length
  return { succeeded, failed: outcomes.length - succeeded, disabled }
}

/** The body is built once, on the first attempt, as the owner reads the resource then; every retry sends those bytes again. */
async function bodyOf(deps: WebhookWorkerDeps, delivery: ClaimedDelivery): Promise<string> {
  if (delivery.body !== null) return delivery.body
  const data = await deps.payloads.render(delivery.type, delivery.subject, delivery.endpoint.owner)
  const body = JSON.stringify({ type: delivery.type, timestamp: delivery.occurredAt.toISOString(), data })
  await deps.uow.repos.webhookDeliveries.saveBody(delivery.id, body)
  return body
}

async function attempt(deps: WebhookWorkerDeps, delivery: ClaimedDelivery): Promise<boolean> {
  const body = await bodyOf(deps, delivery)
  const result = await deps.sender.send({ url: delivery.endpoint.url, secret: delivery.endpoint.secret, eventId: delivery.eventId, timestamp: deps.clock.now(), body })
  const at = deps.clock.now()
  const succeeded = isSuccess(result)
  const next = succeeded ? null : nextAttemptAfterFailure(delivery.attempts, delivery.createdAt, at)
  await deps.uow.run(async (repos) => {
    await repos.webhookDeliveries.record(delivery.id, {
      status: succeeded ? 'succeeded' : next ? 'failing' : 'failed',
      lastStatusCode: result.statusCode,
      lastError: result.error,
      nextAttemptAt: next,
      at,
    })
    await repos.webhookEndpoints.noteAttempt(delivery.endpoint.id, succeeded, at)
    return ok(undefined)
  })
  return succeeded
}

/** Endpoints whose every attempt has failed for 5 days are disabled, each owner emailed once, in one transaction each round. */
async function disableFailingEndpoints(deps: Pick<WebhookWorkerDeps, 'uow' | 'clock'>): Promise<number> {
  const now = deps.clock.now()
  const result = await deps.uow.run(async (repos) => {
    const failing = await repos.webhookEndpoints.claimFailingSince(new Date(now.getTime() - DISABLE_AFTER_FAILING_MS), 50)
    for (const endpoint of failing) {
      await repos.webhookEndpoints.update(endpoint.id, { enabled: false })
      await repos.outbox.enqueue({
        kind: 'email',
        template: ENDPOINT_DISABLED_TEMPLATE,
        to: endpoint.ownerEmail,
        data: { endpointId: endpoint.id, url: endpoint.url, failingSince: endpoint.failingSince?.toISOString() ?? null },
        dedupeKey: `${ENDPOINT_DISABLED_TEMPLATE}:${endpoint.id}:${endpoint.failingSince?.toISOString() ?? ''}`,
      })
    }
    return ok(failing.length)
  })
  return result._unsafeUnwrap()
}
