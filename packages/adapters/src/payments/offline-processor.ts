import { randomBytes } from 'node:crypto'
import { err, ok, type Result } from 'neverthrow'
import { cardRejected, paymentFailed, type CardDetails, type CardRejected, type PaymentIntent, type PaymentProcessor } from '@tutoring/domain'

/** Its own ids are base64url, so they may hold `-` and `_`: every check below accepts both. */
const idOf = (prefix: string) => `${prefix}_offline_${randomBytes(9).toString('base64url')}`

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

function checkTestCard(paymentMethodId: string): Result<CardDetails, CardRejected> {
  if (!/^pm_[A-Za-z0-9_-]+$/.test(paymentMethodId)) return err(cardRejected('No such payment method.'))
  const known = TEST_CARDS[paymentMethodId] ?? { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 }
  if ('rejected' in known) return err(cardRejected(known.rejected))
  return ok({ paymentMethodId, ...known })
}

/** Needs the customer on a page of the card issuer before it can be authorised. */
const ACTION_REQUIRED = new Set(['pm_card_threeDSecure2Required', 'pm_card_authenticationRequired'])

/**
 * The built-in processor of the embedded mode: no network, the same outcomes as the real
 * one for the same test payment methods. Any other `pm_...` id behaves like a Visa.
 * Payment intents live in this process (the embedded mode is one process); an idempotency
 * key repeated returns the first answer, as the real API does. Billing portal links lead to
 * `{baseUrl}/billing/offline-portal`, a page of this service's own origin.
 */
export function offlineProcessor(now: () => Date = () => new Date(), baseUrl = 'http://localhost:3000'): PaymentProcessor {
  const intents = new Map<string, PaymentIntent>()
  const answers = new Map<string, unknown>()
  const saved = new Map<string, CardDetails>()
  const once = async <T>(key: string, run: () => T): Promise<T> => {
    if (!answers.has(key)) answers.set(key, run())
    return structuredClone(answers.get(key)) as T
  }
  const intent = (paymentIntentId: string): PaymentIntent => {
    const found = intents.get(paymentIntentId)
    if (!found) throw new Error(`No such payment_intent: '${paymentIntentId}'`)
    return found
  }
  const save = (value: PaymentIntent): PaymentIntent => {
    intents.set(value.id, value)
    return structuredClone(value)
  }
  return {
    mode: 'offline',
    async createCustomer() {
      return { customerId: idOf('cus') }
    },
    async deleteCustomer() {},
    async updateCustomer() {},
    async attachCard(_customerId, paymentMethodId) {
      const known = saved.get(paymentMethodId)
      if (known) return ok(known)
      // Like Stripe, attaching a test token (pm_card_visa) makes a new payment method of its own.
      return checkTestCard(paymentMethodId).map((card) => {
        const attached = paymentMethodId in TEST_CARDS ? { ...card, paymentMethodId: idOf('pm') } : card
        saved.set(attached.paymentMethodId, attached)
        return attached
      })
    },
    async checkCard(paymentMethodId) {
      const known = saved.get(paymentMethodId)
      return known ? ok(known) : checkTestCard(paymentMethodId)
    },
    async setDefaultCard() {},
    async detachCard() {},
    async tokenizeBankAccount() {
      return ok({ token: idOf('btok') })
    },
    async createExternalAccount({ accountId, idempotencyKey }) {
      return once(idempotencyKey, () => ({ accountId: accountId ?? idOf('acct'), bankAccountId: idOf('ba') }))
    },
    async createBillingPortalSession({ customerId, flow }) {
      const query = new URLSearchParams({ customer: customerId, flow })
      return { url: `${baseUrl.replace(/\/$/, '')}/billing/offline-portal?${query.toString()}` }
    },
    async createSubscription({ trialPeriodDays }) {
      const trialEndsAt = trialPeriodDays > 0 ? new Date(now().getTime() + trialPeriodDays * 86_400_000) : null
      return {
        subscriptionId: idOf('sub'),
        status: trialPeriodDays > 0 ? 'trialing' : 'active',
        trialEndsAt,
        currentPeriodEnd: trialEndsAt ?? new Date(now().getTime() + 30 * 86_400_000),
      }
    },
    async createPaymentIntent(input) {
      // The remembered answer is plain data (a Result would lose its methods when cloned).
      const answer = await once<{ failed: string } | { intent: PaymentIntent }>(input.idempotencyKey, () => {
        const known = TEST_CARDS[input.paymentMethodId]
        if (!/^pm_[A-Za-z0-9_-]+$/.test(input.paymentMethodId)) return { failed: 'No such payment method.' }
        if (known && 'rejected' in known) return { failed: known.rejected }
        const id = idOf('pi')
        const needsAction = ACTION_REQUIRED.has(input.paymentMethodId) && !input.offSession
        const status = needsAction ? 'requires_action' : input.captureMethod === 'manual' ? 'requires_capture' : 'succeeded'
        return {
          intent: save({
            id,
            status,
            amountPence: input.amountPence,
            amountCapturablePence: status === 'requires_capture' ? input.amountPence : 0,
            amountReceivedPence: status === 'succeeded' ? input.amountPence : 0,
            clientSecret: `${id}_secret_${randomBytes(12).toString('base64url')}`,
            redirectUrl: needsAction ? `${input.returnUrl}${input.returnUrl.includes('?') ? '&' : '?'}payment_intent=${id}` : null,
          }),
        }
      })
      return 'failed' in answer ? err(paymentFailed(answer.failed)) : ok(answer.intent)
    },
    async retrievePaymentIntent(paymentIntentId) {
      return structuredClone(intent(paymentIntentId))
    },
    async capturePaymentIntent(paymentIntentId, { amountPence, idempotencyKey }) {
      return once(idempotencyKey, () => {
        const current = intent(paymentIntentId)
        if (current.status !== 'requires_capture') throw new Error(`This PaymentIntent could not be captured because it has a status of ${current.status}.`)
        const amount = amountPence ?? current.amountCapturablePence
        if (amount > current.amountCapturablePence) throw new Error('The amount to capture is greater than the amount capturable.')
        return save({ ...current, status: 'succeeded', amountCapturablePence: 0, amountReceivedPence: amount })
      })
    },
    async cancelPaymentIntent(paymentIntentId, { idempotencyKey }) {
      return once(idempotencyKey, () => {
        const current = intent(paymentIntentId)
        if (current.status === 'succeeded' || current.status === 'canceled') {
          throw new Error(`You cannot cancel this PaymentIntent because it has a status of ${current.status}.`)
        }
        return save({ ...current, status: 'canceled', amountCapturablePence: 0 })
      })
    },
    async refundPayment(paymentIntentId, { amountPence, idempotencyKey }) {
      return once(idempotencyKey, () => {
        const current = intent(paymentIntentId)
        if (current.status !== 'succeeded') throw new Error(`This PaymentIntent has a status of ${current.status} and cannot be refunded.`)
        if (amountPence > current.amountReceivedPence) throw new Error('Refund amount is greater than the unrefunded amount.')
        save({ ...current, amountReceivedPence: current.amountReceivedPence - amountPence })
        return { refundId: idOf('re'), amountPence }
      })
    },
  }
}
