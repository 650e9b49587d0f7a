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
 * The processor declined a payment (CONTRACT §2: 402 `payment_failed`). `code` is the
 * processor's: `authentication_required` means an off-session payment the customer must
 * confirm themselves (3-D Secure) on the intent named by `paymentIntentId`.
 */
export type PaymentFailed = { type: 'PaymentFailed'; reason: string; code?: string; paymentIntentId?: string }
export const paymentFailed = (reason: string, more: { code?: string; paymentIntentId?: string } = {}): PaymentFailed => ({
  type: 'PaymentFailed',
  reason,
  ...(more.code ? { code: more.code } : {}),
  ...(more.paymentIntentId ? { paymentIntentId: more.paymentIntentId } : {}),
})

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
  /** The charge the authorisation made; a separate transfer to the tutor names it as its source. */
  latestChargeId: string | null
  transferGroup: string | null
}

/**
 * A destination charge (Connect): when the intent is captured, the connected account
 * receives what was captured less `applicationFeePence`, which the platform keeps.
 */
export type ChargeDestination = { accountId: string; applicationFeePence: number }

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
  /** The tutor's share goes to their account on capture; absent or null, the platform keeps it all for now. */
  destination?: ChargeDestination | null
  /** Ties the charge to transfers made for it later (a tutor enabled for payouts afterwards). */
  transferGroup?: string | null
}

/** A SetupIntent's status, named as the processor names it. */
export type SetupIntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'canceled'
  | 'succeeded'

/** A card saved for later off-session payments, confirmed by the customer now (3-D Secure included). */
export type SetupIntent = {
  id: string
  status: SetupIntentStatus
  customerId: string
  paymentMethodId: string | null
  /** For the client to confirm the setup (Stripe.js `confirmCardSetup`). */
  clientSecret: string | null
  /** Where the customer must go to authenticate, when they must. */
  redirectUrl: string | null
}

/** Money moved from the platform to a connected account, apart from any charge's destination. */
export type Transfer = {
  id: string
  accountId: string
  amountPence: number
  reversedPence: number
  sourceChargeId: string | null
  transferGroup: string | null
}

/** What the processor says of a tutor's connected account. */
export type ConnectedAccount = {
  id: string
  payoutsEnabled: boolean
  chargesEnabled: boolean
  detailsSubmitted: boolean
  /** What the processor still needs before it pays out (its `requirements.currently_due`). */
  requirementsDue: string[]
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
  /** `idempotencyKey`: a caller that retries later (the outbox) passes one, so a lost answer never makes a second customer. */
  createCustomer(input: { email: string; name: string; idempotencyKey?: string }): Promise<{ customerId: string }>
  deleteCustomer(customerId: string): Promise<void>
  /** Replaces the customer's date of birth, phone and address with the given ones. */
  updateCustomer(customerId: string, details: CustomerDetails): Promise<void>
  /** Checks the payment method, attaches it to the customer and makes it the default. */
  attachCard(customerId: string, paymentMethodId: string): Promise<Result<CardDetails, CardRejected>>
  createSubscription(input: {
    customerId: string
    priceId: string
    trialPeriodDays: number
    /** As for createCustomer: a retry after a lost answer must not subscribe (and bill) twice. */
    idempotencyKey?: string
  }): Promise<{ subscriptionId: string; status: string; trialEndsAt: Date | null; currentPeriodEnd: Date | null }>
  /** Creates and confirms a PaymentIntent; a decline is `PaymentFailed`. */
  createPaymentIntent(input: CreatePaymentIntentInput): Promise<Result<PaymentIntent, PaymentFailed>>
  retrievePaymentIntent(paymentIntentId: string): Promise<PaymentIntent>
  /**
   * The intent made for a payment row (its `metadata.payment_id`), or null when none was:
   * how a payment whose creating call went unanswered learns whether the card is held.
   */
  findPaymentIntentByPaymentId(paymentId: number): Promise<PaymentIntent | null>
  /**
   * Captures `amountPence` (all that is capturable when omitted) of a manual-capture intent.
   * On a destination charge `applicationFeePence` replaces the platform's fee (a partial
   * capture keeps the fee in proportion to what was kept).
   */
  capturePaymentIntent(paymentIntentId: string, input: { amountPence?: number; applicationFeePence?: number; idempotencyKey: string }): Promise<PaymentIntent>
  /** Releases an uncaptured authorisation. */
  cancelPaymentIntent(paymentIntentId: string, input: { idempotencyKey: string }): Promise<PaymentIntent>
  /**
   * Refunds part or all of a captured payment. On a destination charge, `reverseTransfer`
   * takes the tutor's share back in proportion and `refundApplicationFee` gives back the
   * platform's fee in proportion.
   */
  refundPayment(
    paymentIntentId: string,
    input: { amountPence: number; idempotencyKey: string; reverseTransfer?: boolean; refundApplicationFee?: boolean },
  ): Promise<{ refundId: string; amountPence: number }>
  /**
   * Prepares a card for payments while the customer is away. With `paymentMethodId` it is
   * confirmed now (`requires_action` when the card wants 3-D Secure; a refused card is Err);
   * without one, the client confirms it with the `clientSecret`.
   */
  createSetupIntent(input: {
    customerId: string
    paymentMethodId: string | null
    returnUrl: string
    metadata: Record<string, string>
    idempotencyKey: string
  }): Promise<Result<SetupIntent, CardRejected>>
  retrieveSetupIntent(setupIntentId: string): Promise<SetupIntent>
  /**
   * Pays a connected account from the platform's balance: a tutor's share of a charge made
   * before their account could receive it (`sourceChargeId` ties it to that charge's funds).
   */
  createTransfer(input: {
    accountId: string
    amountPence: number
    sourceChargeId: string | null
    transferGroup: string | null
    metadata: Record<string, string>
    idempotencyKey: string
  }): Promise<Transfer>
  /** Takes back part or all of a transfer (a refund of a lesson paid by separate transfer). */
  reverseTransfer(transferId: string, input: { amountPence: number; idempotencyKey: string }): Promise<{ reversalId: string; amountPence: number }>
  retrieveConnectedAccount(accountId: string): Promise<ConnectedAccount>
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
