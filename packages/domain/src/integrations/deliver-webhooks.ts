import { ok } from 'neverthrow'
import type { IntegrationsDeps, SendResult, WebhookPayloads } from './ports'
import { DISABLE_AFTER_FAILING_MS, nextAttemptAfterFailure } from './retry-schedule'
import type { ClaimedDelivery } from './webhooks'

export type WebhookWorkerDeps = Pick<IntegrationsDeps, 'uow' | 'clock' | 'sender' | 'config'> & { payloads: WebhookPayloads }

/** The email an endpoint's owner gets when it is disabled. */
export const ENDPOINT_DISABLED_TEMPLATE = 'webhook_endpoint_disabled'

const isSuccess = (result: SendResult) => result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300

type Tally = { succeeded: number; failed: number; disabled: number }

/**
 * The webhook worker: each `tick` claims what is due (several instances claim apart; a claim
 * lapses after the lease, so a delivery whose sender died goes out again: at least once), up
 * to `maxInFlight` sends under way, starts them side by side and returns without waiting for
 * them, so a receiver that never answers holds one place for its 10 s and no other delivery,
 * of this round or the next, waits on it. It also disables the endpoints failing for 5 days,
 * emailing their owners. `drain` waits for the sends under way.
 */
export function webhookDispatcher(deps: WebhookWorkerDeps, options: { maxInFlight?: number; onError?: (error: unknown) => void } = {}) {
  const maxInFlight = options.maxInFlight ?? 20
  const inFlight = new Set<Promise<void>>()
  const tally: Tally = { succeeded: 0, failed: 0, disabled: 0 }
  const start = (delivery: ClaimedDelivery) => {
    const sending: Promise<void> = attempt(deps, delivery)
      .then(
        (succeeded) => {
          tally[succeeded ? 'succeeded' : 'failed']++
        },
        // A bug or the database gone: the delivery is left to its lease and tried again.
        (error: unknown) => {
          tally.failed++
          options.onError?.(error)
        },
      )
      .finally(() => inFlight.delete(sending))
    inFlight.add(sending)
  }
  return {
    async tick(): Promise<void> {
      const room = maxInFlight - inFlight.size
      if (room > 0) (await deps.uow.repos.webhookDeliveries.claimDue(deps.clock.now(), room, deps.config.leaseSeconds)).forEach(start)
      tally.disabled += await disableFailingEndpoints(deps)
    },
    async drain(): Promise<Tally> {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight])
      return { ...tally }
    },
  }
}

/** One round, waited for: what is due now, sent, and the outcome counted (the tests' and a one-off run's way). */
export async function deliverWebhooks(deps: WebhookWorkerDeps, limit = 20): Promise<Tally> {
  const round = webhookDispatcher(deps, { maxInFlight: limit })
  await round.tick()
  return round.drain()
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
