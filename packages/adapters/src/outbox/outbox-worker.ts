import type { Logger } from 'pino'
import type { OutboxQueue } from '../db/repositories/outbox.repository'
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
  now?: () => Date
  /** How long a claimed row is this worker's: another takes it over after that, so after a crash too. */
  leaseSeconds?: number
}

const MAX_ATTEMPTS = 10
const DEFAULT_LEASE_SECONDS = 120
const backoffSeconds = (attempts: number) => Math.min(30 * 2 ** (attempts - 1), 6 * 3600)

type Payload = Record<string, unknown>

/**
 * Delivers what is due, at least once. Several workers (instances, or the CLI beside a
 * server) can run at once: each claims rows the others skip.
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
      const giveUp = item.attempts >= MAX_ATTEMPTS
      deps.logger.warn({ outboxId: item.id, topic: item.topic, attempts: item.attempts, err: message, giveUp }, 'outbox delivery failed')
      await deps.queue.markFailedAttempt(item.id, message, new Date(now().getTime() + backoffSeconds(item.attempts) * 1000), giveUp)
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
