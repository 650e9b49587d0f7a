import type { Generated, Selectable } from 'kysely'

export type SubscriptionStatusColumn =
  | 'trialing'
  | 'active'
  | 'canceled'
  | 'incomplete'
  | 'incomplete_expired'

export interface SubscriptionPlansTable {
  id: Generated<number>
  product_id: string
  price_id: string
  trial_period_days: number
  active: Generated<boolean>
}
export interface SubscriptionsTable {
  id: Generated<number>
  user_id: number
  plan_id: number
  processor_subscription_id: string | null
  status: SubscriptionStatusColumn
  trial_ends_at: Date | null
  current_period_end: Date | null
  created_at: Generated<Date>
  updated_at: Generated<Date>
  deleted_at: Date | null
}
export type SubscriptionRow = Selectable<SubscriptionsTable>
export type SubscriptionPlanRow = Selectable<SubscriptionPlansTable>
