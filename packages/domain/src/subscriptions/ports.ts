import type { Outbox } from '../outbox'
import type { PaymentCustomerRepository, PaymentProcessor } from '../payments'
import type { Clock, UnitOfWork, WebhookEventLog } from '../shared'
import type { SubscriptionStatus } from './subscription-status'

/** What a tutor subscribes to (SPEC "Subscription product"): the processor's product and price, and the trial in days. */
export type SubscriptionProduct = { productId: string; priceId: string; trialPeriodDays: number }

export type SubscriptionPlan = SubscriptionProduct & { id: number; active: boolean }

export type Subscription = {
  id: number
  userId: number
  planId: number
  /** The product of the subscription's plan, as stored: the plan a tutor subscribed to, not today's active one. */
  product: SubscriptionProduct
  processorSubscriptionId: string | null
  status: SubscriptionStatus
  trialEndsAt: Date | null
  currentPeriodEnd: Date | null
  createdAt: Date
}

export type SubscriptionChange = {
  status: SubscriptionStatus
  processorSubscriptionId?: string
  trialEndsAt?: Date | null
  currentPeriodEnd?: Date | null
  /** Set when the status is `canceled`: SPEC.md's "cancelled (soft-deleted)". */
  deletedAt?: Date | null
  at: Date
}

/** Live means not soft-deleted; one live subscription per user. */
export interface SubscriptionRepository {
  findLiveForUser(userId: number): Promise<Subscription | undefined>
  lockLiveForUser(userId: number): Promise<Subscription | undefined>
  lockByProcessorId(processorSubscriptionId: string): Promise<Subscription | undefined>
  /** The live subscription of the customer's user that the processor has not named yet. */
  lockUnlinkedForCustomer(processorCustomerId: string): Promise<Subscription | undefined>
  insert(row: { userId: number; planId: number; status: SubscriptionStatus; trialEndsAt: Date | null }): Promise<Subscription>
  update(id: number, change: SubscriptionChange): Promise<Subscription>
  softDelete(id: number, at: Date): Promise<void>
  activePlan(): Promise<SubscriptionPlan | undefined>
  planByPriceId(priceId: string): Promise<SubscriptionPlan | undefined>
}

export interface SubscriptionsRepos {
  subscriptions: SubscriptionRepository
  paymentCustomers: PaymentCustomerRepository
  webhookEvents: WebhookEventLog
  outbox: Outbox
}

export type SubscriptionsDeps = {
  uow: UnitOfWork<SubscriptionsRepos>
  processor: PaymentProcessor
  clock: Clock
  config: { portalReturnUrl: string }
}
