import { err, ok, type Result } from 'neverthrow'
import { invalidStateTransition, type InvalidStateTransition } from '../shared'

export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'canceled', 'incomplete', 'incomplete_expired'] as const
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number]

/** SPEC.md: a subscription is valid when trialing or active. */
export const isSubscriptionValid = (status: SubscriptionStatus): boolean => status === 'trialing' || status === 'active'

/** The webhook kinds SPEC.md "Inbound webhooks" lists for the subscription receiver. */
export const SUBSCRIPTION_EVENTS = [
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.payment_failed',
  'invoice.payment_succeeded',
] as const
export type SubscriptionEvent = (typeof SUBSCRIPTION_EVENTS)[number]

/** Every status the processor gives its own subscription objects. */
export const PROCESSOR_SUBSCRIPTION_STATUSES = [
  'trialing',
  'active',
  'past_due',
  'incomplete',
  'unpaid',
  'incomplete_expired',
  'canceled',
  'paused',
] as const
export type ProcessorSubscriptionStatus = (typeof PROCESSOR_SUBSCRIPTION_STATUSES)[number]

export type SubscriptionMappingRow = {
  readonly event: SubscriptionEvent
  /** `*`: whatever the processor says, or nothing (invoice events carry no subscription status). */
  readonly processorStatus: ProcessorSubscriptionStatus | '*'
  readonly to: SubscriptionStatus
}

const fromSubscriptionObject = (event: SubscriptionEvent): SubscriptionMappingRow[] => [
  { event, processorStatus: 'trialing', to: 'trialing' },
  { event, processorStatus: 'active', to: 'active' },
  // Payment failed and the processor is retrying: SPEC.md's "incomplete".
  { event, processorStatus: 'past_due', to: 'incomplete' },
  { event, processorStatus: 'incomplete', to: 'incomplete' },
  // A trial that ended without a payment method waits for one, like a retry.
  { event, processorStatus: 'paused', to: 'incomplete' },
  // Retries exhausted: "payment failed, subscription ended".
  { event, processorStatus: 'unpaid', to: 'incomplete_expired' },
  { event, processorStatus: 'incomplete_expired', to: 'incomplete_expired' },
  { event, processorStatus: 'canceled', to: 'canceled' },
]

/**
 * The mapping SPEC.md leaves "not shown", as data: the first row whose event and processor
 * status match decides. Specific rows come before `*` rows.
 */
export const SUBSCRIPTION_EVENT_MAP: readonly SubscriptionMappingRow[] = [
  ...fromSubscriptionObject('customer.subscription.created'),
  ...fromSubscriptionObject('customer.subscription.updated'),
  { event: 'customer.subscription.deleted', processorStatus: '*', to: 'canceled' },
  { event: 'invoice.payment_failed', processorStatus: '*', to: 'incomplete' },
  // The processor pays a zero invoice when a trial starts; that must not end the trial.
  { event: 'invoice.payment_succeeded', processorStatus: 'trialing', to: 'trialing' },
  { event: 'invoice.payment_succeeded', processorStatus: '*', to: 'active' },
]

/** Nothing leaves these: the processor never revives an ended subscription; a new one is made instead. */
export const FINAL_SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = ['canceled', 'incomplete_expired']

/**
 * The status after a webhook event. `current` is null before the first event about a
 * subscription. An unknown event, an unknown processor status or an event about an ended
 * subscription is an InvalidStateTransition; the webhook receiver answers 200 and ignores it.
 */
export const subscriptionStatusAfter = (
  current: SubscriptionStatus | null,
  event: string,
  processorStatus?: string,
): Result<SubscriptionStatus, InvalidStateTransition> => {
  const refuse = () => err(invalidStateTransition('subscription', current ?? 'none', event))
  if (current !== null && FINAL_SUBSCRIPTION_STATUSES.includes(current)) return refuse()
  const row = SUBSCRIPTION_EVENT_MAP.find(
    (r) => r.event === event && (r.processorStatus === '*' || r.processorStatus === processorStatus),
  )
  return row ? ok(row.to) : refuse()
}
