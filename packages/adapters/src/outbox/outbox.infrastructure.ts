import type { Kysely } from 'kysely'
import type { PushGateway } from '@tutoring/domain/notifications'
import type { PaymentProcessor } from '@tutoring/domain/payments'
import type { Config } from '../config'
import type { Database } from '../db/database'
import type { Logger } from '../logger'
import type { Mailer } from '../mail'
import type { OutboxQueue } from './outbox.repository'
import { deliverDueOutbox } from './outbox-worker'
import { processorSyncHandlers } from '../booking-payments/payment-sync'
import { devicePushSender } from '../notifications/push-delivery'

type DeliveryDeps = { db: Kysely<Database>; queue: OutboxQueue; mailer: Mailer; push: PushGateway; processor: PaymentProcessor; logger: Logger; now: () => Date }

/** One delivery round of what is due (at most `limit`): emails, pushes to devices, processor syncs. */
export function outboxDelivery(config: Config, deps: DeliveryDeps): (limit?: number) => Promise<{ delivered: number; failed: number }> {
  const { db, queue, mailer, push, processor, logger, now } = deps
  const processorSync = processorSyncHandlers(db, processor)
  return (limit) =>
    deliverDueOutbox(
      {
        queue,
        mailer,
        push: devicePushSender(db, push, { ttlSeconds: config.PUSH_TTL_SECONDS, logger }),
        processorSync,
        logger,
        internalMailbox: config.INTERNAL_MAILBOX,
        now,
        leaseSeconds: config.OUTBOX_LEASE_SECONDS,
      },
      limit,
    )
}
