import type { SubscriptionPlansTable, SubscriptionsTable } from './subscriptions.table'

/** The subscriptions context's tables, as Kysely sees them; `Database` joins every context's. */
export interface SubscriptionsTables {
  subscription_plans: SubscriptionPlansTable
  subscriptions: SubscriptionsTable
}
