import { isSubscriptionValid, type SubscriptionStatus, subscriptionStatusAfter } from '@tutoring/domain/subscriptions'

// A tutor's membership follows the processor's webhook events through one table. A tutor may be
// booked and found in search only while it is valid (trialing or active).
const events: Array<[event: string, processorStatus?: string]> = [
  ['customer.subscription.created', 'trialing'],
  // The zero invoice of a trial does not end it.
  ['invoice.payment_succeeded', 'trialing'],
  ['customer.subscription.updated', 'active'],
  ['invoice.payment_failed'],
  ['invoice.payment_succeeded'],
  ['customer.subscription.deleted'],
  // Nothing revives an ended subscription: the webhook answers 200 and ignores the event.
  ['customer.subscription.updated', 'active'],
]
let status: SubscriptionStatus | null = null
for (const [event, processorStatus] of events) {
  const next = subscriptionStatusAfter(status, event, processorStatus)
  if (next.isErr()) {
    console.log(`${event}: ${next.error.type} from ${next.error.from}`)
    continue
  }
  status = next.value
  console.log(`${event}: ${status}${isSubscriptionValid(status) ? ' (valid)' : ''}`)
}
