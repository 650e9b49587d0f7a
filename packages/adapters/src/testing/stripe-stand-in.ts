import { createHmac, randomBytes } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request as the stand-in received it; `form` is the form-encoded body, keys as sent (`items[0][price]`). */
export type StripeRequest = { method: string; path: string; headers: IncomingHttpHeaders; form: Record<string, string> }

type Json = Record<string, unknown>

/**
 * What the stand-in does instead of answering: `500` and `429` answer so before doing
 * anything; `timeout` does the work (a charge is made) and never answers, as a response
 * lost on the way back would, so only the idempotency key keeps a retry from doing it twice.
 */
export type StripeFault = 500 | 429 | 'timeout'

/** A POST the stand-in carried out (not a replay of an idempotency key): what a double charge or refund would show twice. */
export type StripeEffect = { method: string; path: string; idempotencyKey: string | null; status: number; body: Json }

export type StripeStandIn = {
  /** For `STRIPE_API_BASE`. */
  url: string
  secretKey: string
  requests: StripeRequest[]
  /** Requests to paths matching, in order. */
  seen(pattern: RegExp): StripeRequest[]
  /** The next `count` requests answer 500 (`api_error`), as an outage would. */
  failNext(count?: number): void
  /** The next `count` requests (of those whose `METHOD /path` matches `only`) meet `fault` instead of an answer (see StripeFault). */
  faultNext(count: number, fault: StripeFault, only?: RegExp): void
  /** Faults injected so far, by kind. */
  faultsInjected: Record<string, number>
  /** POSTs carried out, in order (replays of a key are not effects). */
  effects: StripeEffect[]
  /** Stored objects by id, as the stand-in keeps them. */
  objects: Map<string, Json>
  /** The customer finished 3-D Secure (or confirmed on session) for this PaymentIntent or SetupIntent. */
  authenticate(intentId: string): Json
  /** The connected account finished onboarding: payouts and transfers enabled. */
  enablePayouts(accountId: string): Json
  /** The cardholder disputes the charge (`charge.dispute.created`'s object). */
  dispute(chargeId: string): Json
  /** The dispute ends `won` or `lost` (`charge.dispute.closed`'s object). */
  closeDispute(disputeId: string, status: 'won' | 'lost'): Json
  /** A payout of a connected account `paid` or `failed` (`payout.*`'s object). */
  payout(accountId: string, outcome: 'paid' | 'failed', amountPence?: number): Json
  /**
   * Sends a signed event (`Stripe-Signature`, as Stripe signs it) about `object` to `url`, as
   * Stripe's webhooks do; `account` marks a Connect event from a connected account. Events
   * can be sent again (same id) or in any order.
   */
  sendEvent(
    target: { url: string; secret: string },
    type: string,
    object: Json,
    options?: { account?: string; eventId?: string },
  ): Promise<{ status: number; body: string; event: Json }>
  close(): Promise<void>
}

/** Test payment methods as Stripe documents them; `declined` ones refuse with a card error. */
const TEST_CARDS: Record<string, { brand: string; last4: string } | { declined: string; code: string }> = {
  pm_card_visa: { brand: 'visa', last4: '4242' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444' },
  pm_card_amex: { brand: 'amex', last4: '8431' },
  pm_card_threeDSecure2Required: { brand: 'visa', last4: '3155' },
  pm_card_authenticationRequired: { brand: 'visa', last4: '3184' },
  pm_card_chargeDeclined: { declined: 'Your card was declined.', code: 'card_declined' },
  pm_card_chargeDeclinedExpiredCard: { declined: 'Your card has expired.', code: 'expired_card' },
}

const ACTION_REQUIRED = new Set(['pm_card_threeDSecure2Required', 'pm_card_authenticationRequired'])
/** Cards that want the customer even off session: such a payment fails `authentication_required`. */
const ALWAYS_AUTHENTICATE = new Set(['pm_card_authenticationRequired'])
/** Sort codes the stand-in's "bank" does not know. */
const INVALID_SORT_CODE = '000000'

/**
 * A local stand-in for Stripe's API (node:http on 127.0.0.1, a free port): it checks what
 * the SDK sends (Bearer key, form-encoded bodies, Idempotency-Key on POSTs) and answers as
 * the API does: objects with `object`, `id` and `status`, errors as
 * `{error: {type, code, message}}` with Stripe's status codes. A repeated idempotency key
 * answers the first answer again. It speaks Connect as the SDK uses it: destination charges
 * (`transfer_data[destination]`, `application_fee_amount`, `transfer_group`) whose capture
 * makes the transfer and the application fee, refunds that reverse the transfer and refund
 * the fee in proportion, separate transfers (`source_transaction`) to accounts whose
 * transfers are enabled, transfer reversals, accounts, and SetupIntents; and it sends signed
 * webhook events on demand (`sendEvent`).
 */
export async function startStripeStandIn(secretKey = `sk_test_${randomBytes(12).toString('hex')}`): Promise<StripeStandIn> {
  const requests: StripeRequest[] = []
  const objects = new Map<string, Json>()
  const replays = new Map<string, { status: number; body: Json }>()
  const faults: Array<{ fault: StripeFault; only: RegExp }> = []
  const faultsInjected: Record<string, number> = {}
  const effects: StripeEffect[] = []
  const now = () => Math.floor(Date.now() / 1000)
  const newId = (prefix: string) => `${prefix}_${randomBytes(10).toString('hex')}`
  const store = (body: Json): Json => {
    objects.set(String(body.id), body)
    return body
  }

  const answer = (req: StripeRequest): { status: number; body: Json } => {
    const { method, path, form } = req
    const parts = path.split('?')[0]!.split('/').filter(Boolean)
    const [version, resource, id, action] = parts
    if (version !== 'v1') return missing('route', path)

    if (resource === 'customers' && method === 'POST' && !id) {
      return ok(store({ id: newId('cus'), object: 'customer', email: form.email ?? null, name: form.name ?? null, invoice_settings: { default_payment_method: null } }))
    }
    if (resource === 'customers' && id) {
      const customer = objects.get(id)
      if (!customer) return missing('customer', id)
      if (method === 'DELETE') {
        objects.delete(id)
        return ok({ id, object: 'customer', deleted: true })
      }
      if (method === 'POST') {
        if (form['invoice_settings[default_payment_method]'] !== undefined) {
          customer.invoice_settings = { default_payment_method: form['invoice_settings[default_payment_method]'] }
        }
        if (form.phone !== undefined) customer.phone = form.phone || null
        return ok(customer)
      }
      return ok(customer)
    }

    if (resource === 'payment_methods' && id) {
      const stored = objects.get(id)
      if (stored) {
        if (action === 'detach') stored.customer = null
        if (action === 'attach') stored.customer = form.customer
        return ok(stored)
      }
      const card = TEST_CARDS[id]
      if (!card) return missing('payment_method', id, 'payment_method')
      if (action === 'attach') {
        if ('declined' in card) return cardError(card.declined, card.code)
        if (!form.customer || !objects.has(form.customer)) return missing('customer', form.customer ?? '', 'customer')
        // Attaching a test token makes a new payment method, as Stripe does.
        return ok(store({ ...paymentMethod(id, form.customer), id: newId('pm'), test_card: id }))
      }
      return ok(paymentMethod(id, null))
    }

    if (resource === 'subscriptions' && method === 'POST' && !id) {
      const trialDays = Number(form.trial_period_days ?? 0)
      const trialEnd = trialDays > 0 ? now() + trialDays * 86_400 : null
      const periodEnd = trialEnd ?? now() + 30 * 86_400
      return ok(
        store({
          id: newId('sub'),
          object: 'subscription',
          customer: form.customer,
          status: trialDays > 0 ? 'trialing' : 'incomplete',
          trial_end: trialEnd,
          items: { object: 'list', data: [{ id: newId('si'), object: 'subscription_item', price: { id: form['items[0][price]'] }, current_period_end: periodEnd }] },
        }),
      )
    }

    if (resource === 'payment_intents' && method === 'POST' && !id) {
      const given = form.payment_method ?? ''
      const pm = String(objects.get(given)?.test_card ?? given)
      const card = TEST_CARDS[pm]
      if (!card) return missing('payment_method', pm, 'payment_method')
      if ('declined' in card) return cardError(card.declined, card.code)
      const amount = Number(form.amount)
      const destination = form['transfer_data[destination]']
      const fee = form.application_fee_amount === undefined ? null : Number(form.application_fee_amount)
      if (destination !== undefined && !objects.has(destination)) return missing('account', destination, 'transfer_data[destination]')
      if (fee !== null && destination === undefined) return invalid('application_fee_amount needs transfer_data[destination] or on_behalf_of.', 'parameter_missing')
      if (fee !== null && (fee < 0 || fee > amount)) return invalid('The application fee must be between 0 and the amount.', 'parameter_invalid_integer')
      const offSession = form.off_session === 'true'
      const piId = newId('pi')
      const intent = store({
        id: piId,
        object: 'payment_intent',
        amount,
        currency: form.currency,
        customer: form.customer,
        payment_method: given,
        status: 'requires_payment_method',
        amount_capturable: 0,
        amount_received: 0,
        client_secret: `${piId}_secret_${randomBytes(8).toString('hex')}`,
        capture_method: form.capture_method ?? 'automatic',
        next_action: null,
        latest_charge: null,
        transfer_data: destination === undefined ? null : { destination },
        application_fee_amount: fee,
        transfer_group: form.transfer_group ?? null,
        metadata: metadataOf(form),
      })
      if (offSession && ALWAYS_AUTHENTICATE.has(pm)) {
        // Stripe answers 402 with the intent, which the customer can confirm on session.
        return { status: 402, body: { error: { type: 'card_error', code: 'authentication_required', decline_code: 'authentication_required', message: 'Your card was declined. This transaction requires authentication.', payment_intent: intent } } }
      }
      if (ACTION_REQUIRED.has(pm) && !offSession) {
        Object.assign(intent, { status: 'requires_action', next_action: { type: 'redirect_to_url', redirect_to_url: { url: `https://hooks.stripe.test/3ds/${piId}`, return_url: form.return_url } } })
        return ok(intent)
      }
      authorise(intent)
      return ok(intent)
    }
    if (resource === 'payment_intents' && id === 'search' && method === 'GET') {
      // Only the query this app sends: one metadata field equal to a value.
      const query = form.query ?? ''
      const match = /^metadata\['([^']+)'\]:'([^']*)'$/.exec(query)
      if (!match) return invalid(`The search query is not supported here: ${query}`, 'parameter_invalid_string')
      const [, key, value] = match
      const data = [...objects.values()].filter((o) => o.object === 'payment_intent' && (o.metadata as Record<string, string>)[key!] === value)
      return ok({ object: 'search_result', url: '/v1/payment_intents/search', has_more: false, next_page: null, data: data.reverse() })
    }
    if (resource === 'payment_intents' && id) {
      const intent = objects.get(id)
      if (!intent) return missing('payment_intent', id)
      if (action === 'capture') {
        if (intent.status !== 'requires_capture') return invalid(`This PaymentIntent could not be captured because it has a status of ${String(intent.status)}.`, 'payment_intent_unexpected_state')
        const amount = form.amount_to_capture ? Number(form.amount_to_capture) : Number(intent.amount_capturable)
        if (amount > Number(intent.amount_capturable)) return invalid('The amount to capture is greater than the amount capturable.', 'amount_too_large')
        // A capture may name a new application fee (in proportion to a partial capture).
        if (form.application_fee_amount !== undefined && intent.application_fee_amount === null) {
          return invalid('application_fee_amount needs transfer_data[destination] or on_behalf_of.', 'parameter_missing')
        }
        const fee = form.application_fee_amount === undefined ? intent.application_fee_amount : Number(form.application_fee_amount)
        if (fee !== null && Number(fee) > amount) {
          return invalid('The application fee cannot be greater than the amount captured.', 'application_fees_not_allowed')
        }
        intent.application_fee_amount = fee
        Object.assign(intent, { status: 'succeeded', amount_capturable: 0, amount_received: amount })
        capture(intent, amount)
      } else if (action === 'cancel') {
        if (intent.status === 'succeeded' || intent.status === 'canceled') return invalid('You cannot cancel this PaymentIntent.', 'payment_intent_unexpected_state')
        Object.assign(intent, { status: 'canceled', amount_capturable: 0 })
        const charge = objects.get(String(intent.latest_charge))
        if (charge) Object.assign(charge, { refunded: true, amount_refunded: charge.amount })
      }
      return ok(intent)
    }

    if (resource === 'refunds' && method === 'POST') {
      const intent = objects.get(form.payment_intent ?? '')
      if (!intent) return missing('payment_intent', form.payment_intent ?? '', 'payment_intent')
      const amount = form.amount ? Number(form.amount) : Number(intent.amount_received)
      if (intent.status !== 'succeeded' || amount > Number(intent.amount_received)) return invalid('Refund amount is greater than the unrefunded amount.', 'amount_too_large')
      intent.amount_received = Number(intent.amount_received) - amount
      const charge = objects.get(String(intent.latest_charge))!
      const captured = Number(charge.amount_captured)
      charge.amount_refunded = Number(charge.amount_refunded) + amount
      charge.refunded = charge.amount_refunded === captured
      const refund = store({ id: newId('re'), object: 'refund', amount, payment_intent: intent.id, charge: charge.id, status: 'succeeded', transfer_reversal: null, source_transfer_reversal: null })
      // Stripe reverses the transfer and refunds the fee in proportion to the part refunded.
      const transfer = objects.get(String(charge.transfer))
      if (form.reverse_transfer === 'true' && transfer) {
        const share = Math.round((amount * Number(transfer.amount)) / captured)
        refund.transfer_reversal = reverse(transfer, Math.min(share, Number(transfer.amount) - Number(transfer.amount_reversed))).id
      }
      const fee = objects.get(String(charge.application_fee))
      if (form.refund_application_fee === 'true' && fee) {
        const back = Math.min(Math.round((amount * Number(fee.amount)) / captured), Number(fee.amount) - Number(fee.amount_refunded))
        fee.amount_refunded = Number(fee.amount_refunded) + back
        fee.refunded = fee.amount_refunded === fee.amount
        ;(fee.refunds as { data: Json[] }).data.push(store({ id: newId('fr'), object: 'fee_refund', amount: back, fee: fee.id }))
      }
      const refunds = (charge.refunds as { data: Json[] }).data
      refunds.push(refund)
      return ok(refund)
    }

    if (resource === 'charges' && id && method === 'GET') return found('charge', id)
    if (resource === 'application_fees' && id && method === 'GET') return found('application_fee', id)

    if (resource === 'setup_intents' && method === 'POST' && !id) {
      if (!form.customer || !objects.has(form.customer)) return missing('customer', form.customer ?? '', 'customer')
      const siId = newId('seti')
      const intent: Json = {
        id: siId,
        object: 'setup_intent',
        customer: form.customer,
        payment_method: null,
        status: 'requires_payment_method',
        usage: form.usage ?? 'off_session',
        client_secret: `${siId}_secret_${randomBytes(8).toString('hex')}`,
        next_action: null,
        metadata: metadataOf(form),
      }
      const given = form.payment_method
      if (given !== undefined) {
        const pm = String(objects.get(given)?.test_card ?? given)
        const card = TEST_CARDS[pm]
        if (!card) return missing('payment_method', pm, 'payment_method')
        if (form.confirm === 'true' && 'declined' in card) return cardError(card.declined, card.code)
        // Setting up a test token attaches a payment method of its own to the customer.
        const attached = objects.has(given) ? given : String(store({ ...paymentMethod(pm, form.customer), id: newId('pm'), test_card: pm }).id)
        Object.assign(intent, { payment_method: attached, status: 'requires_confirmation' })
        if (form.confirm === 'true') {
          if (ACTION_REQUIRED.has(pm)) {
            Object.assign(intent, { status: 'requires_action', next_action: { type: 'redirect_to_url', redirect_to_url: { url: `https://hooks.stripe.test/3ds/${siId}`, return_url: form.return_url } } })
          } else intent.status = 'succeeded'
        }
      }
      return ok(store(intent))
    }
    if (resource === 'setup_intents' && id && method === 'GET') return found('setup_intent', id)

    if (resource === 'transfers' && method === 'POST' && !id) {
      const account = objects.get(form.destination ?? '')
      if (!account) return missing('account', form.destination ?? '', 'destination')
      if ((account.capabilities as Json).transfers !== 'active') {
        return invalid('Your destination account needs to have at least one of the following capabilities enabled: transfers.', 'insufficient_capabilities_for_transfer')
      }
      const amount = Number(form.amount)
      const source = form.source_transaction === undefined ? undefined : objects.get(form.source_transaction)
      if (form.source_transaction !== undefined && !source) return missing('charge', form.source_transaction, 'source_transaction')
      if (source && amount > Number(source.amount_captured) - Number(source.amount_refunded)) {
        return invalid('The transfer amount exceeds what the source transaction has left.', 'balance_insufficient')
      }
      return ok(transfer(String(account.id), amount, source ? String(source.id) : null, form.transfer_group ?? null, metadataOf(form)))
    }
    if (resource === 'transfers' && id && action === 'reversals' && method === 'POST') {
      const t = objects.get(id)
      if (!t || t.object !== 'transfer') return missing('transfer', id)
      const left = Number(t.amount) - Number(t.amount_reversed)
      const amount = form.amount ? Number(form.amount) : left
      if (amount > left) return invalid('The reversal amount exceeds what is left of the transfer.', 'amount_too_large')
      return ok(reverse(t, amount))
    }
    if (resource === 'transfers' && id && method === 'GET') return found('transfer', id)

    if (resource === 'tokens' && method === 'POST') {
      if (form['bank_account[routing_number]'] === INVALID_SORT_CODE) {
        return { status: 400, body: { error: { type: 'invalid_request_error', code: 'routing_number_invalid', param: 'bank_account[routing_number]', message: 'Invalid sort code.' } } }
      }
      const last4 = (form['bank_account[account_number]'] ?? '').slice(-4)
      return ok(store({ id: newId('btok'), object: 'token', type: 'bank_account', used: false, bank_account: { id: newId('ba'), object: 'bank_account', last4 } }))
    }
    if (resource === 'accounts' && method === 'POST' && !id) {
      // A new Express account can take nothing until its owner finishes onboarding.
      return ok(
        store({
          id: newId('acct'),
          object: 'account',
          type: form.type,
          email: form.email ?? null,
          country: form.country,
          payouts_enabled: false,
          charges_enabled: false,
          details_submitted: false,
          capabilities: { transfers: 'inactive' },
          requirements: { currently_due: ['individual.verification.document', 'tos_acceptance.date'] },
        }),
      )
    }
    if (resource === 'accounts' && id && !action && method === 'GET') return found('account', id)
    if (resource === 'accounts' && id && action === 'external_accounts' && method === 'POST') {
      if (!objects.has(id)) return missing('account', id)
      const token = objects.get(form.external_account ?? '')
      if (!token || token.used) return missing('token', form.external_account ?? '', 'external_account')
      token.used = true
      const bank = token.bank_account as Json
      return ok(store({ ...bank, account: id, default_for_currency: form.default_for_currency === 'true', status: 'new' }))
    }

    if (resource === 'billing_portal' && id === 'sessions' && method === 'POST') {
      if (!form.customer || !objects.has(form.customer)) return missing('customer', form.customer ?? '', 'customer')
      const session = newId('bps')
      return ok({ id: session, object: 'billing_portal.session', customer: form.customer, return_url: form.return_url, url: `https://billing.stripe.test/p/session/${session}?flow=${form['flow_data[type]'] ?? 'none'}` })
    }
    return missing('route', path)
  }

  const found = (kind: string, id: string) => {
    const object = objects.get(id)
    return object && object.object === kind ? ok(object) : missing(kind, id)
  }
  const transfer = (destination: string, amount: number, source: string | null, group: string | null, metadata: Json = {}): Json =>
    store({ id: newId('tr'), object: 'transfer', amount, amount_reversed: 0, currency: 'gbp', destination, source_transaction: source, transfer_group: group, reversed: false, reversals: { object: 'list', data: [] }, metadata })
  const reverse = (t: Json, amount: number): Json => {
    const reversal = store({ id: newId('trr'), object: 'transfer_reversal', amount, transfer: t.id })
    t.amount_reversed = Number(t.amount_reversed) + amount
    t.reversed = t.amount_reversed === t.amount
    ;(t.reversals as { data: Json[] }).data.push(reversal)
    return reversal
  }
  /** An authorised intent gets its charge; an automatic one is captured at once. */
  const authorise = (intent: Json) => {
    const amount = Number(intent.amount)
    const manual = intent.capture_method === 'manual'
    const charge = store({
      id: newId('ch'),
      object: 'charge',
      amount,
      amount_captured: 0,
      amount_refunded: 0,
      captured: false,
      paid: true,
      refunded: false,
      disputed: false,
      status: 'succeeded',
      payment_intent: intent.id,
      customer: intent.customer,
      transfer_data: intent.transfer_data,
      application_fee_amount: intent.application_fee_amount,
      transfer_group: intent.transfer_group,
      transfer: null,
      application_fee: null,
      refunds: { object: 'list', data: [] },
    })
    Object.assign(intent, { latest_charge: charge.id, next_action: null, status: manual ? 'requires_capture' : 'succeeded', amount_capturable: manual ? amount : 0, amount_received: manual ? 0 : amount })
    if (!manual) capture(intent, amount)
  }
  /** Capture of a destination charge moves the captured amount less the fee to the account. */
  const capture = (intent: Json, amount: number) => {
    const charge = objects.get(String(intent.latest_charge))!
    Object.assign(charge, { captured: true, amount_captured: amount })
    const destination = (intent.transfer_data as { destination?: string } | null)?.destination
    if (!destination) return
    const feeAmount = Number(intent.application_fee_amount ?? 0)
    charge.transfer = transfer(destination, amount - feeAmount, String(charge.id), (intent.transfer_group as string | null) ?? null).id
    if (feeAmount > 0) {
      charge.application_fee = store({ id: newId('fee'), object: 'application_fee', amount: feeAmount, amount_refunded: 0, refunded: false, account: destination, charge: charge.id, refunds: { object: 'list', data: [] } }).id
    }
  }
  const mustFind = (id: string): Json => {
    const object = objects.get(id)
    if (!object) throw new Error(`the stand-in has no ${id}`)
    return object
  }

  const server = createServer((req, res) => {
    let text = ''
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
    req.on('end', () => {
      const [path, query] = (req.url ?? '').split('?')
      const form = Object.fromEntries(new URLSearchParams(req.method === 'GET' ? (query ?? '') : text))
      const entry: StripeRequest = { method: req.method ?? '', path: path ?? '', headers: req.headers, form }
      requests.push(entry)
      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        return send(res, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } })
      }
      const planned = faults.findIndex((f) => f.only.test(`${entry.method} ${entry.path}`))
      const fault = planned === -1 ? undefined : faults.splice(planned, 1)[0]!.fault
      if (fault !== undefined) faultsInjected[String(fault)] = (faultsInjected[String(fault)] ?? 0) + 1
      if (fault === 500) return send(res, 500, { error: { type: 'api_error', message: 'Something went wrong on our end.' } })
      if (fault === 429) {
        return send(res, 429, { error: { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests hit the API too quickly.' } })
      }
      if (entry.method === 'POST' && text && !/^application\/x-www-form-urlencoded/.test(req.headers['content-type'] ?? '')) {
        return send(res, 400, { error: { type: 'invalid_request_error', message: 'Bodies are form-encoded.' } })
      }
      const key = req.headers['idempotency-key']
      const replayKey = typeof key === 'string' ? `${entry.method} ${entry.path} ${key}` : undefined
      const replayed = replayKey ? replays.get(replayKey) : undefined
      const result = replayed ?? answer(entry)
      if (replayKey && !replayed) replays.set(replayKey, result)
      if (!replayed && entry.method === 'POST') effects.push({ method: entry.method, path: entry.path, idempotencyKey: typeof key === 'string' ? key : null, status: result.status, body: result.body })
      // Done, but the answer is lost: the client's socket times out.
      if (fault === 'timeout') return
      send(res, result.status, result.body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    requests,
    seen: (pattern) => requests.filter((r) => pattern.test(`${r.method} ${r.path}`)),
    failNext: (count = 1) => {
      for (let i = 0; i < count; i++) faults.push({ fault: 500, only: /./ })
    },
    faultNext: (count, fault, only = /./) => {
      for (let i = 0; i < count; i++) faults.push({ fault, only })
    },
    faultsInjected,
    effects,
    objects,
    authenticate(intentId) {
      const intent = mustFind(intentId)
      if (intent.object === 'setup_intent') {
        if (intent.status !== 'requires_action' && intent.status !== 'requires_confirmation') throw new Error(`setup intent is ${String(intent.status)}`)
        return Object.assign(intent, { status: 'succeeded', next_action: null })
      }
      if (intent.status !== 'requires_action' && intent.status !== 'requires_payment_method') throw new Error(`payment intent is ${String(intent.status)}`)
      authorise(intent)
      return intent
    },
    enablePayouts(accountId) {
      return Object.assign(mustFind(accountId), {
        payouts_enabled: true,
        charges_enabled: true,
        details_submitted: true,
        capabilities: { transfers: 'active' },
        requirements: { currently_due: [] },
      })
    },
    dispute(chargeId) {
      const charge = mustFind(chargeId)
      charge.disputed = true
      return store({ id: newId('dp'), object: 'dispute', amount: charge.amount_captured, charge: charge.id, payment_intent: charge.payment_intent, currency: 'gbp', reason: 'fraudulent', status: 'needs_response', created: now() })
    },
    closeDispute(disputeId, status) {
      return Object.assign(mustFind(disputeId), { status })
    },
    payout(accountId, outcome, amountPence = 1000) {
      mustFind(accountId)
      return store({
        id: newId('po'),
        object: 'payout',
        amount: amountPence,
        currency: 'gbp',
        destination: newId('ba'),
        status: outcome,
        arrival_date: now() + 86_400,
        failure_code: outcome === 'failed' ? 'account_closed' : null,
        failure_message: outcome === 'failed' ? 'The bank account has been closed.' : null,
        account: accountId,
      })
    },
    async sendEvent(target, type, object, options = {}) {
      const event: Json = {
        id: options.eventId ?? newId('evt'),
        object: 'event',
        api_version: '2025-01-27.acacia',
        created: now(),
        livemode: false,
        type,
        data: { object: structuredClone(object) },
        ...(options.account ? { account: options.account } : {}),
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
      }
      const payload = JSON.stringify(event)
      const response = await fetch(target.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signStripePayload(payload, target.secret) },
        body: payload,
      })
      return { status: response.status, body: await response.text(), event }
    },
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

/** A `Stripe-Signature` header for `payload`, computed as Stripe documents it (not with the SDK). */
export function signStripePayload(payload: string, secret: string, timestampSeconds = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac('sha256', secret).update(`${timestampSeconds}.${payload}`, 'utf8').digest('hex')
  return `t=${timestampSeconds},v1=${v1}`
}

function paymentMethod(id: string, customer: string | null): Json {
  const card = TEST_CARDS[id]!
  const details = 'declined' in card ? { brand: 'visa', last4: '0002' } : card
  return { id, object: 'payment_method', type: 'card', customer, card: { ...details, exp_month: 12, exp_year: 2034, checks: { cvc_check: 'pass' } } }
}

const ok = (body: Json) => ({ status: 200, body })
/** `metadata[key]` form fields as the object's metadata. */
const metadataOf = (form: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(form).flatMap(([k, v]) => {
    const key = /^metadata\[(.+)\]$/.exec(k)?.[1]
    return key === undefined ? [] : [[key, v]]
  }))
const missing = (resource: string, id: string, param?: string) => ({
  status: 404,
  body: { error: { type: 'invalid_request_error', code: 'resource_missing', param, message: `No such ${resource}: '${id}'` } },
})
const cardError = (message: string, declineCode: string) => ({
  status: 402,
  body: { error: { type: 'card_error', code: declineCode === 'expired_card' ? 'expired_card' : 'card_declined', decline_code: declineCode, message } },
})
const invalid = (message: string, code: string) => ({ status: 400, body: { error: { type: 'invalid_request_error', code, message } } })

function send(res: ServerResponse, status: number, body: Json) {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(6).toString('hex')}` })
  res.end(JSON.stringify(body))
}
