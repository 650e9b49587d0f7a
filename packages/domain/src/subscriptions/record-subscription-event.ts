import { ok, ResultAsync } from 'neverthrow'
import type { Subscription, SubscriptionsDeps, SubscriptionsRepos } from './ports'
import { SUBSCRIPTION_EVENTS, subscriptionStatusAfter, type SubscriptionStatus } from './subscription-status'

export const SUBSCRIPTION_EVENT_SOURCE = 'subscriptions'

/** A processor event about a subscription, reduced to what the mapping reads. */
export type SubscriptionEventInput = {
  id: string
  type: string
  /** `customer.subscription.*`: the subscription object. */
  subscription?: { id: string; customerId: string | null; status: string; trialEndsAt: Date | null; currentPeriodEnd: Date | null }
  /** `invoice.*`: the invoice's subscription and what it took. */
  invoice?: { subscriptionId: string | null; customerId: string | null; amountPaidPence: number }
}

export type SubscriptionEventOutcome =
  | { outcome: 'handled'; status: SubscriptionStatus }
  | { outcome: 'duplicate' }
  | { outcome: 'ignored'; reason: 'unknown_type' | 'unknown_subscription' | 'not_applicable' }

/**
 * The subscription webhook: finds the stored subscription (by the processor's id, or the
 * customer's subscription the processor has not named yet) and moves its status by
 * `SUBSCRIPTION_EVENT_MAP`. `canceled` soft-deletes it. The event id is remembered in the
 * same transaction, so a repeat changes nothing. An invoice paid with nothing while the
 * stored subscription is trialing is the trial's zero invoice (the processor says trialing).
 */
export function recordSubscriptionEvent(deps: Pick<SubscriptionsDeps, 'uow' | 'clock'>, event: SubscriptionEventInput): ResultAsync<SubscriptionEventOutcome, never> {
  return new ResultAsync(deps.uow.run((repos) => apply(repos, deps.clock.now(), event).then((outcome) => ok(outcome))))
}

async function apply(repos: SubscriptionsRepos, now: Date, event: SubscriptionEventInput): Promise<SubscriptionEventOutcome> {
  const fresh = await repos.webhookEvents.record({ source: SUBSCRIPTION_EVENT_SOURCE, eventId: event.id, type: event.type, receivedAt: now })
  if (!fresh) return { outcome: 'duplicate' }
  if (!SUBSCRIPTION_EVENTS.some((t) => t === event.type)) return { outcome: 'ignored', reason: 'unknown_type' }

  const processorId = event.subscription?.id ?? event.invoice?.subscriptionId ?? null
  const customerId = event.subscription?.customerId ?? event.invoice?.customerId ?? null
  const stored = await find(repos, processorId, customerId)
  if (!stored) return { outcome: 'ignored', reason: 'unknown_subscription' }

  const processorStatus =
    event.subscription?.status ?? (event.invoice && event.invoice.amountPaidPence === 0 && stored.status === 'trialing' ? 'trialing' : undefined)
  const next = subscriptionStatusAfter(stored.status, event.type, processorStatus)
  if (next.isErr()) return { outcome: 'ignored', reason: 'not_applicable' }

  await repos.subscriptions.update(stored.id, {
    status: next.value,
    ...(processorId && !stored.processorSubscriptionId ? { processorSubscriptionId: processorId } : {}),
    ...(event.subscription ? { trialEndsAt: event.subscription.trialEndsAt, currentPeriodEnd: event.subscription.currentPeriodEnd } : {}),
    ...(next.value === 'canceled' ? { deletedAt: now } : {}),
    at: now,
  })
  return { outcome: 'handled', status: next.value }
}

async function find(repos: SubscriptionsRepos, processorId: string | null, customerId: string | null): Promise<Subscription | undefined> {
  const byId = processorId ? await repos.subscriptions.lockByProcessorId(processorId) : undefined
  if (byId) return byId
  return customerId ? repos.subscriptions.lockUnlinkedForCustomer(customerId) : undefined
}
