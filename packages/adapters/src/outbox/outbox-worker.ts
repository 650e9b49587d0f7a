import type { Logger } from 'pino'
import type { OutboxQueue } from './outbox.repository'
import { renderEmail, type Mailer } from '../mail'

export type ProcessorSyncHandler = (data: Record<string, unknown>) => Promise<void>

/** Sends one outbox push (`outboxId` is the row's id) to the devices of `userId`. */
export interface PushSender {
  send(message: { outboxId: number; userId: number; title: string; body: string; data: Record<string, unknown> }): Promise<void>
}

export type OutboxWorkerDeps = {
  queue: OutboxQueue
  mailer: Mailer
  push: PushSender
  processorSync: Record<string, ProcessorSyncHandler>
  logger: Logger
  /** Where staff are told of a message that keeps failing. */
  internalMailbox: string
  now?: () => Date
  /** How long a claimed row is this worker's: another takes it over after that, so after a crash too. */
  leaseSeconds?: number
}

/** After this many failed attempts (about 8.5 hours) a message is marked as failing and staff are emailed, once. */
export const OUTBOX_FAILING_AFTER_ATTEMPTS = 10
const DEFAULT_LEASE_SECONDS = 120
const backoffSeconds = (attempts: number) => Math.min(30 * 2 ** Math.min(attempts - 1, 20), 6 * 3600)
const STAFF_ALERT_TEMPLATE = 'outbox_failing'

type Payload = Record<string, unknown>

/**
 * Delivers what is due, at least once. Several workers (instances, or the CLI beside a
 * server) can run at once: each claims rows the others skip. Nothing is ever given up
 * (money is never dropped, CONTRACT §14): a failing item is retried with capped exponential
 * backoff for as long as it takes; past the threshold it is marked as failing, listed by
 * `cli outbox:failed`, and staff are emailed once.
 */
export async function deliverDueOutbox(deps: OutboxWorkerDeps, limit = 50): Promise<{ delivered: number; failed: number }> {
  const now = deps.now ?? (() => new Date())
  const items = await deps.queue.claimDue(now(), limit, deps.leaseSeconds ?? DEFAULT_LEASE_SECONDS)
  let delivered = 0
  let failed = 0
  for (const item of items) {
    try {
      await deliver(deps, item.id, item.kind, item.topic, item.payload as Payload)
      await deps.queue.markDelivered(item.id, now())
      delivered++
    } catch (error) {
      failed++
      const message = error instanceof Error ? error.message : String(error)
      const failing = item.attempts >= OUTBOX_FAILING_AFTER_ATTEMPTS
      const retryAt = new Date(now().getTime() + backoffSeconds(item.attempts) * 1000)
      deps.logger.warn({ outboxId: item.id, topic: item.topic, attempts: item.attempts, err: message, failing }, 'outbox delivery failed')
      const { markedFailing } = await deps.queue.markFailedAttempt(item.id, message, retryAt, failing ? now() : null)
      // An alert about an alert would chain while mail is down; that one shows in `outbox:failed` only.
      if (markedFailing && item.topic !== STAFF_ALERT_TEMPLATE) {
        await deps.queue.enqueue({
          kind: 'email',
          template: STAFF_ALERT_TEMPLATE,
          to: deps.internalMailbox,
          data: { outboxId: item.id, kind: item.kind, topic: item.topic, attempts: item.attempts, lastError: message, retryAt: retryAt.toISOString() },
          dedupeKey: `${STAFF_ALERT_TEMPLATE}:${item.id}`,
        })
      }
    }
  }
  return { delivered, failed }
}

async function deliver(deps: OutboxWorkerDeps, id: number, kind: string, topic: string, payload: Payload): Promise<void> {
  switch (kind) {
    case 'email': {
      const rendered = renderEmail(String(payload.template), (payload.data ?? {}) as Payload)
      // A stable Message-ID lets receiving systems drop a duplicate after a retry.
      await deps.mailer.send({ to: String(payload.to), ...rendered, messageId: `<outbox-${id}@tutoring.local>` })
      return
    }
    case 'push':
      await deps.push.send({
        outboxId: id,
        userId: Number(payload.userId),
        title: String(payload.title),
        body: String(payload.body),
        data: (payload.data ?? {}) as Payload,
      })
      return
    case 'processor_sync': {
      const handler = deps.processorSync[topic]
      if (!handler) throw new Error(`no processor sync handler for ${topic}`)
      await handler((payload.data ?? {}) as Payload)
      return
    }
    default:
      throw new Error(`unknown outbox kind ${kind}`)
  }
}
