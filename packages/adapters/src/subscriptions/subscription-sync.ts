import type { Kysely } from 'kysely'
import type { PaymentProcessor } from '@tutoring/domain/payments'
import { SUBSCRIPTION_CREATE_TOPIC } from '@tutoring/domain/subscriptions'
import type { Database } from '../db/database'
import type { ProcessorSyncHandler } from '../outbox'

/** The processor's copy of a subscription started here, made after commit so the processor being down never fails a request. */
export function subscriptionSyncHandlers(db: Kysely<Database>, processor: PaymentProcessor): Record<string, ProcessorSyncHandler> {
  return {
    [SUBSCRIPTION_CREATE_TOPIC]: async (data) => {
      const subscriptionId = Number(data.subscriptionId)
      const row = await db
        .selectFrom('subscriptions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .innerJoin('subscription_plans as p', 'p.id', 's.plan_id')
        .select(['s.id', 's.processor_subscription_id', 's.trial_ends_at', 'u.id as user_id', 'u.email', 'u.firstname', 'u.lastname', 'u.processor_customer_id', 'p.price_id', 'p.trial_period_days'])
        .where('s.id', '=', subscriptionId)
        .executeTakeFirst()
      if (!row || row.processor_subscription_id) return
      let customerId = row.processor_customer_id
      if (!customerId) {
        customerId = (await processor.createCustomer({ email: row.email, name: `${row.firstname} ${row.lastname}`, idempotencyKey: `subscription.create:${subscriptionId}:customer` })).customerId
        await db.updateTable('users').set({ processor_customer_id: customerId }).where('id', '=', row.user_id).execute()
      }
      // Keyed by the subscription row: the outbox retrying after a lost answer gets the first subscription back, not a second one.
      const created = await processor.createSubscription({ customerId, priceId: row.price_id, trialPeriodDays: row.trial_period_days, idempotencyKey: `subscription.create:${subscriptionId}` })
      await db
        .updateTable('subscriptions')
        .set({ processor_subscription_id: created.subscriptionId, current_period_end: created.currentPeriodEnd })
        .where('id', '=', subscriptionId)
        .where('processor_subscription_id', 'is', null)
        .execute()
    },
  }
}
