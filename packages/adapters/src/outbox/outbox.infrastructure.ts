import type { Config } from '../config'
import type { Logger } from '../logger'
import type { Mailer } from '../mail'
import type { OutboxQueue } from './outbox.repository'
import { deliverDueOutbox, type ProcessorSyncHandler, type PushSender } from './outbox-worker'

/** What delivers each kind: the mailer here, the push sender and each context's processor syncs (by topic) from their rooms. */
type DeliveryDeps = {
  queue: OutboxQueue
  mailer: Mailer
  push: PushSender
  processorSync: Record<string, ProcessorSyncHandler>
  logger: Logger
  now: () => Date
}

/** One delivery round of what is due (at most `limit`): emails, pushes to devices, processor syncs. */
export function outboxDelivery(config: Config, deps: DeliveryDeps): (limit?: number) => Promise<{ delivered: number; failed: number }> {
  return (limit) => deliverDueOutbox({ ...deps, internalMailbox: config.INTERNAL_MAILBOX, leaseSeconds: config.OUTBOX_LEASE_SECONDS }, limit)
}
