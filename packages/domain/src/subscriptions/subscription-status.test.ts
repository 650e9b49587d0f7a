import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  FINAL_SUBSCRIPTION_STATUSES,
  PROCESSOR_SUBSCRIPTION_STATUSES,
  SUBSCRIPTION_EVENTS,
  SUBSCRIPTION_EVENT_MAP,
  SUBSCRIPTION_STATUSES,
  isSubscriptionValid,
  subscriptionStatusAfter,
} from './subscription-status'

describe('subscription status', () => {
  it('is valid when trialing or active only', () => {
    expect(SUBSCRIPTION_STATUSES.filter(isSubscriptionValid)).toEqual(['trialing', 'active'])
  })

  it.each(SUBSCRIPTION_EVENT_MAP.filter((row) => row.processorStatus !== '*'))(
    'maps $event with processor status $processorStatus to $to',
    ({ event, processorStatus, to }) => {
      expect(subscriptionStatusAfter('trialing', event, processorStatus)._unsafeUnwrap()).toBe(to)
    },
  )

  it('maps a deleted subscription to canceled whatever its processor status', () => {
    for (const status of [...PROCESSOR_SUBSCRIPTION_STATUSES, undefined]) {
      expect(subscriptionStatusAfter('active', 'customer.subscription.deleted', status)._unsafeUnwrap()).toBe('canceled')
    }
  })

  it('maps a failed invoice payment to incomplete', () => {
    expect(subscriptionStatusAfter('active', 'invoice.payment_failed')._unsafeUnwrap()).toBe('incomplete')
    expect(subscriptionStatusAfter('trialing', 'invoice.payment_failed', 'past_due')._unsafeUnwrap()).toBe('incomplete')
  })

  it('maps a paid invoice to active, except the zero invoice of a trial', () => {
    expect(subscriptionStatusAfter('incomplete', 'invoice.payment_succeeded')._unsafeUnwrap()).toBe('active')
    expect(subscriptionStatusAfter('incomplete', 'invoice.payment_succeeded', 'active')._unsafeUnwrap()).toBe('active')
    expect(subscriptionStatusAfter(null, 'invoice.payment_succeeded', 'trialing')._unsafeUnwrap()).toBe('trialing')
  })

  it('takes the first event about a subscription with no status yet', () => {
    expect(subscriptionStatusAfter(null, 'customer.subscription.created', 'trialing')._unsafeUnwrap()).toBe('trialing')
  })

  it('refuses unknown events and unknown processor statuses', () => {
    expect(subscriptionStatusAfter('active', 'charge.succeeded')._unsafeUnwrapErr()).toEqual({
      type: 'InvalidStateTransition',
      machine: 'subscription',
      from: 'active',
      trigger: 'charge.succeeded',
    })
    expect(subscriptionStatusAfter('active', 'customer.subscription.updated', 'zombie').isErr()).toBe(true)
  })

  it('never leaves canceled or incomplete_expired, whatever the event', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FINAL_SUBSCRIPTION_STATUSES),
        fc.constantFrom(...SUBSCRIPTION_EVENTS),
        fc.option(fc.constantFrom(...PROCESSOR_SUBSCRIPTION_STATUSES), { nil: undefined }),
        (current, event, processorStatus) => {
          expect(subscriptionStatusAfter(current, event, processorStatus)._unsafeUnwrapErr().type).toBe('InvalidStateTransition')
        },
      ),
      { numRuns: 1000 },
    )
  })

  it('maps every handled event from every open status to some status', () => {
    for (const event of SUBSCRIPTION_EVENTS) {
      for (const processorStatus of PROCESSOR_SUBSCRIPTION_STATUSES) {
        expect(subscriptionStatusAfter('active', event, processorStatus).isOk()).toBe(true)
      }
    }
  })
})
