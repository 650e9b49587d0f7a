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

/** The processor declined a payment (CONTRACT §2: 402 `payment_failed`). */
export type PaymentFailed = { type: 'PaymentFailed'; reason: string }
export const paymentFailed = (reason: string): PaymentFailed => ({ type: 'PaymentFailed', reason })

/** A PaymentIntent's status, named as the processor names it. */
export type PaymentIntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'succeeded'
  | 'canceled'

export type PaymentIntent = {
  id: string
  status: PaymentIntentStatus
  amountPence: number
  /** What a manual-capture intent still holds on the card. */
  amountCapturablePence: number
  amountReceivedPence: number
  clientSecret: string | null
  /** Where the customer must go to finish the payment (3-D Secure), when they must. */
  redirectUrl: string | null
}

/**
 * Every call that moves money carries an idempotency key, so a retry after a timeout can
 * never charge or refund twice.
 */
export type CreatePaymentIntentInput = {
  customerId: string
  paymentMethodId: string
  amountPence: number
  /** `manual`: authorise now, capture when the lesson is delivered. */
  captureMethod: 'manual' | 'automatic'
  /** `off_session`: the customer is not present (a saved card charged closer to the lesson). */
  offSession: boolean
  returnUrl: string
  description: string
  metadata: Record<string, string>
  idempotencyKey: string
}

/** A UK bank account as the tutor types it; the number goes to the processor and nowhere else. */
export type BankAccountDetails = {
  accountHolderName: string
  /** Six digits, no dashes. */
  sortCode: string
  /** Eight digits. */
  accountNumber: string
}

/** The processor refused bank details (unknown sort code, invalid number). */
export type BankAccountRejected = { type: 'BankAccountRejected'; reason: string }
export const bankAccountRejected = (reason: string): BankAccountRejected => ({ type: 'BankAccountRejected', reason })

/** Where a billing portal session lands the customer. */
export type BillingPortalFlow = 'payment_method_update' | 'subscription_cancel'

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
  /** Creates and confirms a PaymentIntent; a decline is `PaymentFailed`. */
  createPaymentIntent(input: CreatePaymentIntentInput): Promise<Result<PaymentIntent, PaymentFailed>>
  retrievePaymentIntent(paymentIntentId: string): Promise<PaymentIntent>
  /** Captures `amountPence` (all that is capturable when omitted) of a manual-capture intent. */
  capturePaymentIntent(paymentIntentId: string, input: { amountPence?: number; idempotencyKey: string }): Promise<PaymentIntent>
  /** Releases an uncaptured authorisation. */
  cancelPaymentIntent(paymentIntentId: string, input: { idempotencyKey: string }): Promise<PaymentIntent>
  /** Refunds part or all of a captured payment. */
  refundPayment(paymentIntentId: string, input: { amountPence: number; idempotencyKey: string }): Promise<{ refundId: string; amountPence: number }>
  /** Looks a payment method up without attaching it: a card that could be saved, or why not. */
  checkCard(paymentMethodId: string): Promise<Result<CardDetails, CardRejected>>
  /** Makes an attached payment method the customer's default for invoices and payments. */
  setDefaultCard(customerId: string, paymentMethodId: string): Promise<void>
  /** Detaches a payment method from its customer; one already detached is no error. */
  detachCard(paymentMethodId: string): Promise<void>
  /** Exchanges bank details for a single-use processor token, so the full number is never stored here. */
  tokenizeBankAccount(details: BankAccountDetails): Promise<Result<{ token: string }, BankAccountRejected>>
  /**
   * Adds a tokenised bank account to a tutor's connected account (made first when
   * `accountId` is null) as its default payout account.
   */
  createExternalAccount(input: {
    accountId: string | null
    email: string
    token: string
    idempotencyKey: string
  }): Promise<{ accountId: string; bankAccountId: string }>
  /** A hosted page where the customer updates their card or cancels their subscription. */
  createBillingPortalSession(input: {
    customerId: string
    returnUrl: string
    flow: BillingPortalFlow
    subscriptionId: string | null
  }): Promise<{ url: string }>
}
