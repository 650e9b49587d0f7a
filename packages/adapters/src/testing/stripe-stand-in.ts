import { createHmac, randomBytes } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request as the stand-in received it; `form` is the form-encoded body, keys as sent (`items[0][price]`). */
export type StripeRequest = { method: string; path: string; headers: IncomingHttpHeaders; form: Record<string, string> }

type Json = Record<string, unknown>

export type StripeStandIn = {
  /** For `STRIPE_API_BASE`. */
  url: string
  secretKey: string
  requests: StripeRequest[]
  /** Requests to paths matching, in order. */
  seen(pattern: RegExp): StripeRequest[]
  /** The next `count` requests answer 500 (`api_error`), as an outage would. */
  failNext(count?: number): void
  /** Stored objects by id, as the stand-in keeps them. */
  objects: Map<string, Json>
  close(): Promise<void>
}

/** Test payment methods as Stripe documents them; `declined` ones refuse with a card error. */
const TEST_CARDS: Record<string, { brand: string; last4: string } | { declined: string; code: string }> = {
  pm_card_visa: { brand: 'visa', last4: '4242' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444' },
  pm_card_amex: { brand: 'amex', last4: '8431' },
  pm_card_threeDSecure2Required: { brand: 'visa', last4: '3155' },
  pm_card_chargeDeclined: { declined: 'Your card was declined.', code: 'card_declined' },
  pm_card_chargeDeclinedExpiredCard: { declined: 'Your card has expired.', code: 'expired_card' },
}

const ACTION_REQUIRED = new Set(['pm_card_threeDSecure2Required'])
/** Sort codes the stand-in's "bank" does not know. */
const INVALID_SORT_CODE = '000000'

/**
 * A local stand-in for Stripe's API (node:http on 127.0.0.1, a free port): it checks what
 * the SDK sends (Bearer key, form-encoded bodies, Idempotency-Key on POSTs) and answers as
 * the API does: objects with `object`, `id` and `status`, errors as
 * `{error: {type, code, message}}` with Stripe's status codes. A repeated idempotency key
 * answers the first answer again.
 */
export async function startStripeStandIn(secretKey = `sk_test_${randomBytes(12).toString('hex')}`): Promise<StripeStandIn> {
  const requests: StripeRequest[] = []
  const objects = new Map<string, Json>()
  const replays = new Map<string, { status: number; body: Json }>()
  let failures = 0
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
      const manual = form.capture_method === 'manual'
      const needsAction = ACTION_REQUIRED.has(pm) && form.off_session !== 'true'
      const amount = Number(form.amount)
      const piId = newId('pi')
      return ok(
        store({
          id: piId,
          object: 'payment_intent',
          amount,
          currency: form.currency,
          customer: form.customer,
          status: needsAction ? 'requires_action' : manual ? 'requires_capture' : 'succeeded',
          amount_capturable: !needsAction && manual ? amount : 0,
          amount_received: !needsAction && !manual ? amount : 0,
          client_secret: `${piId}_secret_${randomBytes(8).toString('hex')}`,
          capture_method: form.capture_method ?? 'automatic',
          next_action: needsAction ? { type: 'redirect_to_url', redirect_to_url: { url: `https://hooks.stripe.test/3ds/${piId}`, return_url: form.return_url } } : null,
        }),
      )
    }
    if (resource === 'payment_intents' && id) {
      const intent = objects.get(id)
      if (!intent) return missing('payment_intent', id)
      if (action === 'capture') {
        if (intent.status !== 'requires_capture') return invalid(`This PaymentIntent could not be captured because it has a status of ${String(intent.status)}.`, 'payment_intent_unexpected_state')
        const amount = form.amount_to_capture ? Number(form.amount_to_capture) : Number(intent.amount_capturable)
        Object.assign(intent, { status: 'succeeded', amount_capturable: 0, amount_received: amount })
      } else if (action === 'cancel') {
        if (intent.status === 'succeeded' || intent.status === 'canceled') return invalid('You cannot cancel this PaymentIntent.', 'payment_intent_unexpected_state')
        Object.assign(intent, { status: 'canceled', amount_capturable: 0 })
      }
      return ok(intent)
    }

    if (resource === 'refunds' && method === 'POST') {
      const intent = objects.get(form.payment_intent ?? '')
      if (!intent) return missing('payment_intent', form.payment_intent ?? '', 'payment_intent')
      const amount = form.amount ? Number(form.amount) : Number(intent.amount_received)
      if (intent.status !== 'succeeded' || amount > Number(intent.amount_received)) return invalid('Refund amount is greater than the unrefunded amount.', 'amount_too_large')
      intent.amount_received = Number(intent.amount_received) - amount
      return ok(store({ id: newId('re'), object: 'refund', amount, payment_intent: intent.id, status: 'succeeded' }))
    }

    if (resource === 'tokens' && method === 'POST') {
      if (form['bank_account[routing_number]'] === INVALID_SORT_CODE) {
        return { status: 400, body: { error: { type: 'invalid_request_error', code: 'routing_number_invalid', param: 'bank_account[routing_number]', message: 'Invalid sort code.' } } }
      }
      const last4 = (form['bank_account[account_number]'] ?? '').slice(-4)
      return ok(store({ id: newId('btok'), object: 'token', type: 'bank_account', used: false, bank_account: { id: newId('ba'), object: 'bank_account', last4 } }))
    }
    if (resource === 'accounts' && method === 'POST' && !id) {
      return ok(store({ id: newId('acct'), object: 'account', type: form.type, email: form.email ?? null, country: form.country }))
    }
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
      if (failures > 0) {
        failures--
        return send(res, 500, { error: { type: 'api_error', message: 'Something went wrong on our end.' } })
      }
      if (entry.method === 'POST' && text && !/^application\/x-www-form-urlencoded/.test(req.headers['content-type'] ?? '')) {
        return send(res, 400, { error: { type: 'invalid_request_error', message: 'Bodies are form-encoded.' } })
      }
      const key = req.headers['idempotency-key']
      const replayKey = typeof key === 'string' ? `${entry.method} ${entry.path} ${key}` : undefined
      const replayed = replayKey ? replays.get(replayKey) : undefined
      const result = replayed ?? answer(entry)
      if (replayKey && !replayed) replays.set(replayKey, result)
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
      failures = count
    },
    objects,
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
