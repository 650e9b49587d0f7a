import type { Kysely, Transaction } from 'kysely'
import type { WithoutLocks } from '@tutoring/domain/shared'
import type { Subscription, SubscriptionPlan, SubscriptionRepository } from '@tutoring/domain/subscriptions'
import type { Database } from '../db/database'
import type { Locks } from '../db/row-locks'
import type { SubscriptionPlanRow } from './subscriptions.table'

const rowToPlan = (row: SubscriptionPlanRow): SubscriptionPlan => ({
  id: row.id,
  productId: row.product_id,
  priceId: row.price_id,
  trialPeriodDays: row.trial_period_days,
  active: row.active,
})

const all = (db: Kysely<Database>) =>
  db
    .selectFrom('subscriptions as s')
    .innerJoin('subscription_plans as p', 'p.id', 's.plan_id')
    .select(['s.id', 's.user_id', 's.plan_id', 'p.product_id', 'p.price_id', 'p.trial_period_days', 's.processor_subscription_id', 's.status', 's.trial_ends_at', 's.current_period_end', 's.created_at'])
type Row = Awaited<ReturnType<ReturnType<typeof all>['executeTakeFirstOrThrow']>>
const rowToSubscription = (row: Row): Subscription => ({
  id: row.id,
  userId: row.user_id,
  planId: row.plan_id,
  product: { productId: row.product_id, priceId: row.price_id, trialPeriodDays: row.trial_period_days },
  processorSubscriptionId: row.processor_subscription_id,
  status: row.status,
  trialEndsAt: row.trial_ends_at,
  currentPeriodEnd: row.current_period_end,
  createdAt: row.created_at,
})
const one = async (query: ReturnType<typeof all>) => {
  const row = await query.executeTakeFirst()
  return row && rowToSubscription(row)
}
const liveForUser = (db: Kysely<Database>, userId: number) => all(db).where('s.user_id', '=', userId).where('s.deleted_at', 'is', null)

export function subscriptionRepository(db: Kysely<Database>): WithoutLocks<SubscriptionRepository> {
  const byId = async (id: number) => rowToSubscription(await all(db).where('s.id', '=', id).executeTakeFirstOrThrow())
  return {
    findLiveForUser: (userId) => one(liveForUser(db, userId)),
    async insert(row) {
      const inserted = await db
        .insertInto('subscriptions')
        .values({ user_id: row.userId, plan_id: row.planId, status: row.status, trial_ends_at: row.trialEndsAt, processor_subscription_id: null, current_period_end: null, deleted_at: null })
        .returning('id')
        .executeTakeFirstOrThrow()
      return byId(inserted.id)
    },
    async update(id, change) {
      await db
        .updateTable('subscriptions')
        .set({
          status: change.status,
          ...(change.processorSubscriptionId !== undefined ? { processor_subscription_id: change.processorSubscriptionId } : {}),
          ...(change.trialEndsAt !== undefined ? { trial_ends_at: change.trialEndsAt } : {}),
          ...(change.currentPeriodEnd !== undefined ? { current_period_end: change.currentPeriodEnd } : {}),
          ...(change.deletedAt !== undefined ? { deleted_at: change.deletedAt } : {}),
          updated_at: change.at,
        })
        .where('id', '=', id)
        .execute()
      return byId(id)
    },
    async softDelete(id, at) {
      await db.updateTable('subscriptions').set({ deleted_at: at, updated_at: at }).where('id', '=', id).execute()
    },
    async activePlan() {
      const row = await db.selectFrom('subscription_plans').selectAll().where('active', '=', true).orderBy('id').executeTakeFirst()
      return row && rowToPlan(row)
    },
    async planByPriceId(priceId) {
      const row = await db.selectFrom('subscription_plans').selectAll().where('price_id', '=', priceId).executeTakeFirst()
      return row && rowToPlan(row)
    },
  }
}

export function subscriptionLocks(trx: Transaction<Database>): Locks<SubscriptionRepository> {
  return {
    lockLiveForUser: (userId) => one(liveForUser(trx, userId).forUpdate('s')),
    // Soft-deleted ones too: an event about an ended subscription must find it (and be refused), not another.
    lockByProcessorId: (id) => one(all(trx).where('s.processor_subscription_id', '=', id).forUpdate('s')),
    lockUnlinkedForCustomer: (customerId) =>
      one(
        all(trx)
          .innerJoin('users as u', 'u.id', 's.user_id')
          .where('u.processor_customer_id', '=', customerId)
          .where('s.processor_subscription_id', 'is', null)
          .where('s.deleted_at', 'is', null)
          .forUpdate('s'),
      ),
  }
}
