import { randomBytes } from 'node:crypto'
import { err, ok } from 'neverthrow'
import { cardRejected, type CardDetails, type PaymentProcessor } from '@tutoring/domain'

const id = (prefix: string) => `${prefix}_offline_${randomBytes(9).toString('base64url')}`

/** Stripe's documented test payment methods, so clients can exercise the same cases offline. */
const TEST_CARDS: Record<string, Omit<CardDetails, 'paymentMethodId'> | { rejected: string }> = {
  pm_card_visa: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', expMonth: 12, expYear: 2034 },
  pm_card_amex: { brand: 'amex', last4: '8431', expMonth: 12, expYear: 2034 },
  pm_card_visa_debit: { brand: 'visa', last4: '5556', expMonth: 12, expYear: 2034 },
  pm_card_threeDSecure2Required: { brand: 'visa', last4: '3155', expMonth: 12, expYear: 2034 },
  pm_card_chargeDeclined: { rejected: 'Your card was declined.' },
  pm_card_chargeDeclinedExpiredCard: { rejected: 'Your card has expired.' },
  pm_card_chargeDeclinedIncorrectCvc: { rejected: "Your card's security code is incorrect." },
}

/**
 * The built-in processor of the embedded mode: no network, the same outcomes as the real
 * one for the same test payment methods. Any other `pm_...` id behaves like a Visa.
 */
export function offlineProcessor(now: () => Date = () => new Date()): PaymentProcessor {
  return {
    mode: 'offline',
    async createCustomer() {
      return { customerId: id('cus') }
    },
    async deleteCustomer() {},
    async updateCustomer() {},
    async attachCard(_customerId, paymentMethodId) {
      if (!/^pm_[A-Za-z0-9_]+$/.test(paymentMethodId)) return err(cardRejected('No such payment method.'))
      const known = TEST_CARDS[paymentMethodId] ?? { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 }
      if ('rejected' in known) return err(cardRejected(known.rejected))
      return ok({ paymentMethodId, ...known })
    },
    async createSubscription({ trialPeriodDays }) {
      const trialEndsAt = trialPeriodDays > 0 ? new Date(now().getTime() + trialPeriodDays * 86_400_000) : null
      return {
        subscriptionId: id('sub'),
        status: trialPeriodDays > 0 ? 'trialing' : 'active',
        trialEndsAt,
        currentPeriodEnd: trialEndsAt ?? new Date(now().getTime() + 30 * 86_400_000),
      }
    },
  }
}
