import { err, ok, type Result } from 'neverthrow'
import Stripe from 'stripe'
import {
  bankAccountRejected,
  cardRejected,
  paymentFailed,
  type CardDetails,
  type CardRejected,
  type PaymentIntent,
  type ConnectedAccount,
  type PaymentIntentStatus,
  type PaymentProcessor,
  type SetupIntent,
  type SetupIntentStatus,
  type Transfer,
} from '@tutoring/domain/payments'

export type StripeProcessorOptions = {
  secretKey: string
  /** A local stand-in's base URL (`STRIPE_API_BASE`); Stripe's own API when absent. */
  apiBase?: string
  timeoutMs?: number
  /** The SDK retries network failures and 5xx answers with the same idempotency key. */
  maxNetworkRetries?: number
}

const DEFAULT_TIMEOUT_MS = 15_000
const CURRENCY = 'gbp'

/**
 * The processor did not answer usefully: unreachable, timed out, rate limited or 5xx, after
 * the SDK's own retries (each with the first attempt's idempotency key). Nothing about the
 * request was wrong, so a later retry with the same key is safe; the HTTP layer answers 503
 * `processor_unavailable`, the outbox tries again later.
 */
export class ProcessorUnavailable extends Error {
  constructor(cause: unknown) {
    super(`the payment processor is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })
  }
}

/**
 * The real processor through the official SDK. Refusals that are the customer's to fix
 * (a declined card, an unknown payment method, bank details the processor rejects) come
 * back as Err; an outage throws ProcessorUnavailable; anything else (a request this code
 * got wrong) throws as it came, and the caller answers 500 or retries through the outbox.
 * Every call that changes money carries an idempotency key of the caller's, so neither the
 * SDK's retries nor the caller's ever charge, capture or refund twice.
 */
export function stripeProcessor(options: StripeProcessorOptions): PaymentProcessor {
  const stripe = new Stripe(options.secretKey, {
    ...hostOptions(options.apiBase),
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxNetworkRetries: options.maxNetworkRetries ?? 2,
    telemetry: false,
  })

  return outagesAsUnavailable({
    mode: 'live',
    async createCustomer({ email, name, idempotencyKey }) {
      const customer = await stripe.customers.create({ email, name }, idempotencyKey ? { idempotencyKey } : {})
      return { customerId: customer.id }
    },
    async deleteCustomer(customerId) {
      await ignoreMissing(stripe.customers.del(customerId))
    },
    async updateCustomer(customerId, details) {
      // An empty string unsets a field in Stripe's API; null clears it here.
      await stripe.customers.update(customerId, {
        phone: details.phone ?? '',
        address: details.address
          ? {
              line1: details.address.line1,
              line2: details.address.line2 ?? '',
              city: details.address.city,
              postal_code: details.address.postcode,
              country: details.address.country,
            }
          : '',
        metadata: { date_of_birth: details.dateOfBirth ?? '' },
      })
    },
    async attachCard(customerId, paymentMethodId) {
      return refusedAs(
        async () => {
          const method = await stripe.paymentMethods.attach(paymentMethodId, { customer: customerId })
          const card = cardOf(method)
          if (card.isErr()) return card
          await stripe.customers.update(customerId, { invoice_settings: { default_payment_method: method.id } })
          return card
        },
        (reason) => cardRejected(reason),
      )
    },
    async checkCard(paymentMethodId) {
      return refusedAs(async () => cardOf(await stripe.paymentMethods.retrieve(paymentMethodId)), (reason) => cardRejected(reason))
    },
    async setDefaultCard(customerId, paymentMethodId) {
      await stripe.customers.update(customerId, { invoice_settings: { default_payment_method: paymentMethodId } })
    },
    async detachCard(paymentMethodId) {
      await ignoreMissing(stripe.paymentMethods.detach(paymentMethodId))
    },
    async createSubscription({ customerId, priceId, trialPeriodDays, idempotencyKey }) {
      const subscription = await stripe.subscriptions.create(
        {
          customer: customerId,
          items: [{ price: priceId }],
          ...(trialPeriodDays > 0
            ? { trial_period_days: trialPeriodDays, trial_settings: { end_behavior: { missing_payment_method: 'pause' } } }
            : { payment_behavior: 'default_incomplete' }),
        },
        idempotencyKey ? { idempotencyKey } : {},
      )
      const periodEnd = subscription.items.data[0]?.current_period_end
      return {
        subscriptionId: subscription.id,
        status: subscription.status,
        trialEndsAt: fromUnix(subscription.trial_end),
        currentPeriodEnd: fromUnix(periodEnd ?? null),
      }
    },
    async createPaymentIntent(input) {
      return refusedAs(
        async () =>
          ok(
            presentIntent(
              await stripe.paymentIntents.create(
                {
                  amount: input.amountPence,
                  currency: CURRENCY,
                  customer: input.customerId,
                  payment_method: input.paymentMethodId,
                  capture_method: input.captureMethod,
                  confirm: true,
                  off_session: input.offSession,
                  ...(input.offSession ? {} : { return_url: input.returnUrl }),
                  description: input.description,
                  metadata: input.metadata,
                  ...(input.destination
                    ? { transfer_data: { destination: input.destination.accountId }, application_fee_amount: input.destination.applicationFeePence }
                    : {}),
                  ...(input.transferGroup ? { transfer_group: input.transferGroup } : {}),
                },
                { idempotencyKey: input.idempotencyKey },
              ),
            ),
          ),
        (reason, error) => paymentFailed(reason, { code: error.code, paymentIntentId: error.payment_intent?.id }),
      )
    },
    async retrievePaymentIntent(paymentIntentId) {
      return presentIntent(await stripe.paymentIntents.retrieve(paymentIntentId))
    },
    async findPaymentIntentByPaymentId(paymentId) {
      // Every intent made here carries its payment row's id (booking-payment-intent.ts).
      const found = await stripe.paymentIntents.search({ query: `metadata['payment_id']:'${paymentId}'`, limit: 1 })
      const intent = found.data[0]
      return intent ? presentIntent(intent) : null
    },
    async capturePaymentIntent(paymentIntentId, { amountPence, applicationFeePence, idempotencyKey }) {
      const params = {
        ...(amountPence === undefined ? {} : { amount_to_capture: amountPence }),
        ...(applicationFeePence === undefined ? {} : { application_fee_amount: applicationFeePence }),
      }
      return presentIntent(await stripe.paymentIntents.capture(paymentIntentId, params, { idempotencyKey }))
    },
    async cancelPaymentIntent(paymentIntentId, { idempotencyKey }) {
      return presentIntent(await stripe.paymentIntents.cancel(paymentIntentId, {}, { idempotencyKey }))
    },
    async refundPayment(paymentIntentId, { amountPence, idempotencyKey, reverseTransfer, refundApplicationFee }) {
      const refund = await stripe.refunds.create(
        {
          payment_intent: paymentIntentId,
          amount: amountPence,
          ...(reverseTransfer ? { reverse_transfer: true } : {}),
          ...(refundApplicationFee ? { refund_application_fee: true } : {}),
        },
        { idempotencyKey },
      )
      return { refundId: refund.id, amountPence: refund.amount }
    },
    async createSetupIntent({ customerId, paymentMethodId, returnUrl, metadata, idempotencyKey }) {
      return refusedAs(
        async () =>
          ok(
            presentSetupIntent(
              await stripe.setupIntents.create(
                {
                  customer: customerId,
                  usage: 'off_session',
                  metadata,
                  ...(paymentMethodId ? { payment_method: paymentMethodId, confirm: true, return_url: returnUrl } : {}),
                },
                { idempotencyKey },
              ),
            ),
          ),
        (reason) => cardRejected(reason),
      )
    },
    async retrieveSetupIntent(setupIntentId) {
      return presentSetupIntent(await stripe.setupIntents.retrieve(setupIntentId))
    },
    async createTransfer({ accountId, amountPence, sourceChargeId, transferGroup, metadata, idempotencyKey }) {
      const transfer = await stripe.transfers.create(
        {
          amount: amountPence,
          currency: CURRENCY,
          destination: accountId,
          metadata,
          ...(sourceChargeId ? { source_transaction: sourceChargeId } : {}),
          ...(transferGroup ? { transfer_group: transferGroup } : {}),
        },
        { idempotencyKey },
      )
      return presentTransfer(transfer)
    },
    async reverseTransfer(transferId, { amountPence, idempotencyKey }) {
      const reversal = await stripe.transfers.createReversal(transferId, { amount: amountPence }, { idempotencyKey })
      return { reversalId: reversal.id, amountPence: reversal.amount }
    },
    async retrieveConnectedAccount(accountId) {
      return presentAccount(await stripe.accounts.retrieve(accountId))
    },
    async tokenizeBankAccount(details) {
      return refusedAs(
        async () => {
          const token = await stripe.tokens.create({
            bank_account: {
              country: 'GB',
              currency: CURRENCY,
              account_holder_name: details.accountHolderName,
              account_holder_type: 'individual',
              routing_number: details.sortCode,
              account_number: details.accountNumber,
            },
          })
          return ok({ token: token.id })
        },
        (reason) => bankAccountRejected(reason),
      )
    },
    async createExternalAccount({ accountId, email, token, idempotencyKey }) {
      const connected =
        accountId ??
        (
          await stripe.accounts.create(
            { type: 'express', country: 'GB', email, capabilities: { transfers: { requested: true } } },
            { idempotencyKey: `${idempotencyKey}:account` },
          )
        ).id
      const external = await stripe.accounts.createExternalAccount(
        connected,
        { external_account: token, default_for_currency: true },
        { idempotencyKey },
      )
      return { accountId: connected, bankAccountId: external.id }
    },
    async createBillingPortalSession({ customerId, returnUrl, flow, subscriptionId }) {
      const flowData: Stripe.BillingPortal.SessionCreateParams.FlowData | undefined =
        flow === 'payment_method_update'
          ? { type: 'payment_method_update' }
          : subscriptionId
            ? { type: 'subscription_cancel', subscription_cancel: { subscription: subscriptionId } }
            : undefined
      const session = await stripe.billingPortal.sessions.create({
        customer: customerId,
        return_url: returnUrl,
        ...(flowData ? { flow_data: flowData } : {}),
      })
      return { url: session.url }
    },
  })
}

/** An outage as the SDK reports it: no answer (connection, timeout), 429, or a 5xx. */
function isOutage(error: unknown): boolean {
  if (!(error instanceof Stripe.errors.StripeError)) return false
  if (error.type === 'StripeConnectionError' || error.type === 'StripeRateLimitError' || error.type === 'StripeAPIError') return true
  return error.statusCode !== undefined && error.statusCode >= 500
}

/** Every method of `processor`, with an outage rethrown as ProcessorUnavailable. */
function outagesAsUnavailable(processor: PaymentProcessor): PaymentProcessor {
  return new Proxy(processor, {
    get(target, name, receiver) {
      const member: unknown = Reflect.get(target, name, receiver)
      if (typeof member !== 'function') return member
      const method = member as (...args: unknown[]) => Promise<unknown>
      return async (...args: unknown[]) => {
        try {
          return await method.apply(target, args)
        } catch (error) {
          throw isOutage(error) ? new ProcessorUnavailable(error) : error
        }
      }
    },
  })
}

/** `STRIPE_API_BASE` as the SDK's host, port and protocol options. */
export function hostOptions(apiBase: string | undefined): { host?: string; port?: number; protocol?: 'http' | 'https' } {
  if (!apiBase) return {}
  const url = new URL(apiBase)
  const protocol = url.protocol === 'http:' ? 'http' : 'https'
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol }
}

const fromUnix = (seconds: number | null | undefined): Date | null => (seconds ? new Date(seconds * 1000) : null)

const INTENT_STATUSES: readonly PaymentIntentStatus[] = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'requires_capture',
  'succeeded',
  'canceled',
]

function presentIntent(intent: Stripe.PaymentIntent): PaymentIntent {
  const status = INTENT_STATUSES.find((s) => s === intent.status)
  if (!status) throw new Error(`unexpected payment intent status ${intent.status}`)
  return {
    id: intent.id,
    status,
    amountPence: intent.amount,
    amountCapturablePence: intent.amount_capturable,
    amountReceivedPence: intent.amount_received,
    clientSecret: intent.client_secret,
    redirectUrl: intent.next_action?.redirect_to_url?.url ?? null,
    latestChargeId: idOf(intent.latest_charge),
    transferGroup: intent.transfer_group,
  }
}

/** An expandable field's id, whether the API sent the id or the object. */
const idOf = (field: string | { id: string } | null | undefined): string | null => (field == null ? null : typeof field === 'string' ? field : field.id)

const SETUP_STATUSES: readonly SetupIntentStatus[] = ['requires_payment_method', 'requires_confirmation', 'requires_action', 'processing', 'canceled', 'succeeded']

function presentSetupIntent(intent: Stripe.SetupIntent): SetupIntent {
  const status = SETUP_STATUSES.find((s) => s === intent.status)
  const customerId = idOf(intent.customer)
  if (!status || !customerId) throw new Error(`unexpected setup intent ${intent.id} (status ${intent.status})`)
  return {
    id: intent.id,
    status,
    customerId,
    paymentMethodId: idOf(intent.payment_method),
    clientSecret: intent.client_secret,
    redirectUrl: intent.next_action?.redirect_to_url?.url ?? null,
  }
}

function presentTransfer(transfer: Stripe.Transfer): Transfer {
  const accountId = idOf(transfer.destination)
  if (!accountId) throw new Error(`transfer ${transfer.id} has no destination`)
  return {
    id: transfer.id,
    accountId,
    amountPence: transfer.amount,
    reversedPence: transfer.amount_reversed,
    sourceChargeId: idOf(transfer.source_transaction),
    transferGroup: transfer.transfer_group,
  }
}

function presentAccount(account: Stripe.Account): ConnectedAccount {
  return {
    id: account.id,
    payoutsEnabled: account.payouts_enabled ?? false,
    chargesEnabled: account.charges_enabled ?? false,
    detailsSubmitted: account.details_submitted ?? false,
    requirementsDue: account.requirements?.currently_due ?? [],
  }
}

function cardOf(method: Stripe.PaymentMethod): Result<CardDetails, CardRejected> {
  if (method.type !== 'card' || !method.card) return err(cardRejected('The payment method is not a card.'))
  return ok({
    paymentMethodId: method.id,
    brand: method.card.brand,
    last4: method.card.last4,
    expMonth: method.card.exp_month,
    expYear: method.card.exp_year,
  })
}

/**
 * The customer's mistakes as Err: a card error (declined, expired, wrong CVC), or a 4xx
 * invalid request about a resource the client named (`resource_missing`, a bad bank
 * number). Everything else is thrown on.
 */
async function refusedAs<T, E>(run: () => Promise<Result<T, E>>, refuse: (reason: string, error: Stripe.errors.StripeError) => E): Promise<Result<T, E>> {
  try {
    return await run()
  } catch (error) {
    if (isCustomerError(error)) return err(refuse(error.message, error))
    throw error
  }
}

const CUSTOMER_FIXABLE = new Set(['resource_missing', 'payment_method_unactivated', 'routing_number_invalid', 'account_number_invalid', 'bank_account_unusable'])

function isCustomerError(error: unknown): error is Stripe.errors.StripeError {
  if (!(error instanceof Stripe.errors.StripeError)) return false
  if (error.type === 'StripeCardError') return true
  // A missing connected account is this service's data gone wrong, not the customer's to fix.
  if (error.param?.startsWith('transfer_data')) return false
  return error.type === 'StripeInvalidRequestError' && error.code !== undefined && CUSTOMER_FIXABLE.has(error.code)
}

async function ignoreMissing(call: Promise<unknown>): Promise<void> {
  try {
    await call
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError && (error.code === 'resource_missing' || error.statusCode === 404)) return
    // Detaching a method that is attached to no customer is also "already done".
    if (error instanceof Stripe.errors.StripeError && error.code === 'payment_method_not_attached') return
    throw error
  }
}
