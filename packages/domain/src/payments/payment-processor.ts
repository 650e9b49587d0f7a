import type { Result } from 'neverthrow'

export type CardDetails = {
  paymentMethodId: string
  brand: string
  last4: string
  expMonth: number
  expYear: number
}

/** The processor refused the card (declined, expired, wrong number). */
export type CardRejected = { type: 'CardRejected'; reason: string }
export const cardRejected = (reason: string): CardRejected => ({ type: 'CardRejected', reason })

/** What the processor keeps about a tutor as a customer (SPEC "Internal events"); null clears it. */
export type CustomerDetails = {
  dateOfBirth: string | null
  phone: string | null
  address: { line1: string; line2: string | null; city: string; postcode: string; country: string } | null
}

/**
 * The payment processor as the domain needs it. The real adapter speaks to Stripe; the
 * offline default follows the same state model. Expected refusals come back as Err;
 * an unreachable processor throws.
 */
export interface PaymentProcessor {
  readonly mode: 'live' | 'offline'
  createCustomer(input: { email: string; name: string }): Promise<{ customerId: string }>
  deleteCustomer(customerId: string): Promise<void>
  /** Replaces the customer's date of birth, phone and address with the given ones. */
  updateCustomer(customerId: string, details: CustomerDetails): Promise<void>
  /** Checks the payment method, attaches it to the customer and makes it the default. */
  attachCard(customerId: string, paymentMethodId: string): Promise<Result<CardDetails, CardRejected>>
  createSubscription(input: {
    customerId: string
    priceId: string
    trialPeriodDays: number
  }): Promise<{ subscriptionId: string; status: string; trialEndsAt: Date | null; currentPeriodEnd: Date | null }>
}
