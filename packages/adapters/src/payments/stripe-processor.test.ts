import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../config'
import type { DatabaseHandle } from '../db/connect'
import { signStripePayload, startStripeStandIn, type StripeStandIn } from '../testing/stripe-stand-in'
import { processorFromConfig } from './index'
import { hostOptions, ProcessorUnavailable, stripeProcessor } from './stripe-processor'
import { SIGNATURE_TOLERANCE_SECONDS, verifyStripeSignature } from './stripe-signature'

let api: StripeStandIn
beforeAll(async () => {
  api = await startStripeStandIn()
})
afterAll(async () => {
  await api.close()
})

const processor = (retries = 0) => stripeProcessor({ secretKey: api.secretKey, apiBase: api.url, maxNetworkRetries: retries, timeoutMs: 2_000 })
const last = () => api.requests.at(-1)!

describe('Stripe processor against the stand-in', () => {
  it('creates a customer with a Bearer key and a form-encoded body', async () => {
    const { customerId } = await processor().createCustomer({ email: 'ada@example.com', name: 'Ada Lovelace' })
    expect(customerId).toMatch(/^cus_/)
    expect(last()).toMatchObject({ method: 'POST', path: '/v1/customers', form: { email: 'ada@example.com', name: 'Ada Lovelace' } })
    expect(last().headers.authorization).toBe(`Bearer ${api.secretKey}`)
    expect(last().headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/)
  })

  it('attaches a card and makes it the default', async () => {
    const p = processor()
    const { customerId } = await p.createCustomer({ email: 'b@example.com', name: 'B' })
    const attached = await p.attachCard(customerId, 'pm_card_visa')
    const card = attached._unsafeUnwrap()
    // A test token attached becomes a payment method of its own, as in Stripe.
    expect(card).toEqual({ paymentMethodId: expect.stringMatching(/^pm_/), brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 })
    expect(card.paymentMethodId).not.toBe('pm_card_visa')
    const [attach, update] = api.requests.slice(-2)
    expect(attach).toMatchObject({ path: '/v1/payment_methods/pm_card_visa/attach', form: { customer: customerId } })
    expect(update).toMatchObject({ path: `/v1/customers/${customerId}`, form: { 'invoice_settings[default_payment_method]': card.paymentMethodId } })
    expect((await p.checkCard(card.paymentMethodId))._unsafeUnwrap()).toEqual(card)
  })

  it('answers a declined or unknown card as CardRejected, not a throw', async () => {
    const p = processor()
    const { customerId } = await p.createCustomer({ email: 'c@example.com', name: 'C' })
    expect((await p.attachCard(customerId, 'pm_card_chargeDeclined'))._unsafeUnwrapErr()).toEqual({ type: 'CardRejected', reason: 'Your card was declined.' })
    const unknown = await p.checkCard('pm_nope')
    expect(unknown._unsafeUnwrapErr().type).toBe('CardRejected')
    expect(last()).toMatchObject({ method: 'GET', path: '/v1/payment_methods/pm_nope' })
    expect((await p.checkCard('pm_card_mastercard'))._unsafeUnwrap()).toMatchObject({ brand: 'mastercard', last4: '4444' })
  })

  it('creates a trialing subscription that pauses without a card', async () => {
    const p = processor()
    const { customerId } = await p.createCustomer({ email: 'd@example.com', name: 'D' })
    const created = await p.createSubscription({ customerId, priceId: 'price_monthly', trialPeriodDays: 30 })
    expect(created).toMatchObject({ status: 'trialing', subscriptionId: expect.stringMatching(/^sub_/) })
    expect(created.trialEndsAt!.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000)
    expect(created.currentPeriodEnd).toEqual(created.trialEndsAt)
    expect(last()).toMatchObject({
      path: '/v1/subscriptions',
      form: {
        customer: customerId,
        'items[0][price]': 'price_monthly',
        trial_period_days: '30',
        'trial_settings[end_behavior][missing_payment_method]': 'pause',
      },
    })
  })

  it('passes idempotency keys through, so a repeat is the first answer', async () => {
    const p = processor()
    const { customerId } = await p.createCustomer({ email: 'e@example.com', name: 'E' })
    const input = {
      customerId,
      paymentMethodId: 'pm_card_visa',
      amountPence: 2750,
      captureMethod: 'manual' as const,
      offSession: false,
      returnUrl: 'https://app.test/return',
      description: 'Lesson 1',
      metadata: { booking_id: '1' },
      idempotencyKey: 'booking-1-pay',
    }
    const first = (await p.createPaymentIntent(input))._unsafeUnwrap()
    const again = (await p.createPaymentIntent(input))._unsafeUnwrap()
    expect(again.id).toBe(first.id)
    expect(first).toMatchObject({ status: 'requires_capture', amountPence: 2750, amountCapturablePence: 2750, redirectUrl: null })
    expect(last().headers['idempotency-key']).toBe('booking-1-pay')
    expect(last().form).toMatchObject({ amount: '2750', currency: 'gbp', capture_method: 'manual', confirm: 'true', return_url: 'https://app.test/return', 'metadata[booking_id]': '1' })
  })

  it('captures, refunds and cancels with their own keys', async () => {
    const p = processor()
    const { customerId } = await p.createCustomer({ email: 'f@example.com', name: 'F' })
    const base = { customerId, paymentMethodId: 'pm_card_visa', offSession: true, returnUrl: 'https://app.test/r', description: 'x', metadata: {} }
    const held = (await p.createPaymentIntent({ ...base, amountPence: 5000, captureMethod: 'manual', idempotencyKey: 'k-hold' }))._unsafeUnwrap()
    const captured = await p.capturePaymentIntent(held.id, { amountPence: 4000, idempotencyKey: 'k-capture' })
    expect(captured).toMatchObject({ status: 'succeeded', amountReceivedPence: 4000 })
    expect(last()).toMatchObject({ path: `/v1/payment_intents/${held.id}/capture`, form: { amount_to_capture: '4000' } })
    expect(last().headers['idempotency-key']).toBe('k-capture')

    const refund = await p.refundPayment(held.id, { amountPence: 1000, idempotencyKey: 'k-refund' })
    expect(refund).toEqual({ refundId: expect.stringMatching(/^re_/), amountPence: 1000 })
    expect(last()).toMatchObject({ path: '/v1/refunds', form: { payment_intent: held.id, amount: '1000' } })

    const other = (await p.createPaymentIntent({ ...base, amountPence: 100, captureMethod: 'manual', idempotencyKey: 'k-hold-2' }))._unsafeUnwrap()
    expect(await p.cancelPaymentIntent(other.id, { idempotencyKey: 'k-cancel' })).toMatchObject({ status: 'canceled' })
    expect(last()).toMatchObject({ path: `/v1/payment_intents/${other.id}/cancel` })
    expect((await p.retrievePaymentIntent(other.id)).status).toBe('canceled')
  })

  it('answers a declined payment as PaymentFailed and a 3-D Secure one with its redirect', async () => {
    const p = processor()
    const { customerId } = await p.createCustomer({ email: 'g@example.com', name: 'G' })
    const base = { customerId, amountPence: 100, captureMethod: 'automatic' as const, offSession: false, returnUrl: 'https://app.test/r', description: 'x', metadata: {} }
    const declined = await p.createPaymentIntent({ ...base, paymentMethodId: 'pm_card_chargeDeclined', idempotencyKey: 'k-d' })
    expect(declined._unsafeUnwrapErr()).toEqual({ type: 'PaymentFailed', reason: 'Your card was declined.', code: 'card_declined' })
    const action = (await p.createPaymentIntent({ ...base, paymentMethodId: 'pm_card_threeDSecure2Required', idempotencyKey: 'k-3ds' }))._unsafeUnwrap()
    expect(action.status).toBe('requires_action')
    expect(action.redirectUrl).toMatch(/^https:\/\/hooks\.stripe\.test\/3ds\//)
  })

  it('throws when the processor fails (5xx), and retries with the same key when allowed to', async () => {
    api.failNext(1)
    await expect(processor().createCustomer({ email: 'h@example.com', name: 'H' })).rejects.toThrow(/Something went wrong/)
    api.failNext(1)
    const before = api.requests.length
    const { customerId } = await processor(1).createCustomer({ email: 'h@example.com', name: 'H' })
    expect(customerId).toMatch(/^cus_/)
    const [first, retry] = api.requests.slice(before)
    expect(retry!.headers['idempotency-key']).toBe(first!.headers['idempotency-key'])
  })

  it('throws when the processor cannot be reached', async () => {
    const dead = stripeProcessor({ secretKey: 'sk_test_x', apiBase: 'http://127.0.0.1:1', maxNetworkRetries: 0, timeoutMs: 500 })
    await expect(dead.createCustomer({ email: 'i@example.com', name: 'I' })).rejects.toThrow()
  })

  it('tokenises bank details and adds them to a new connected account', async () => {
    const p = processor()
    const rejected = await p.tokenizeBankAccount({ accountHolderName: 'T', sortCode: '000000', accountNumber: '12345678' })
    expect(rejected._unsafeUnwrapErr()).toEqual({ type: 'BankAccountRejected', reason: 'Invalid sort code.' })
    const { token } = (await p.tokenizeBankAccount({ accountHolderName: 'Tutor One', sortCode: '108800', accountNumber: '00012345' }))._unsafeUnwrap()
    expect(last()).toMatchObject({
      path: '/v1/tokens',
      form: { 'bank_account[routing_number]': '108800', 'bank_account[account_number]': '00012345', 'bank_account[country]': 'GB', 'bank_account[currency]': 'gbp' },
    })
    const linked = await p.createExternalAccount({ accountId: null, email: 't@example.com', token, idempotencyKey: 'link-1' })
    expect(linked).toEqual({ accountId: expect.stringMatching(/^acct_/), bankAccountId: expect.stringMatching(/^ba_/) })
    const [account, external] = api.requests.slice(-2)
    expect(account).toMatchObject({ path: '/v1/accounts', form: { type: 'express', country: 'GB', 'capabilities[transfers][requested]': 'true' } })
    expect(external).toMatchObject({ path: `/v1/accounts/${linked.accountId}/external_accounts`, form: { external_account: token, default_for_currency: 'true' } })
    expect(external!.headers['idempotency-key']).toBe('link-1')
  })

  it('opens billing portal sessions for each flow', async () => {
    const p = processor()
    const { customerId } = await p.createCustomer({ email: 'j@example.com', name: 'J' })
    const update = await p.createBillingPortalSession({ customerId, returnUrl: 'https://app.test/', flow: 'payment_method_update', subscriptionId: null })
    expect(update.url).toMatch(/^https:\/\/billing\.stripe\.test\//)
    expect(last()).toMatchObject({ path: '/v1/billing_portal/sessions', form: { customer: customerId, return_url: 'https://app.test/', 'flow_data[type]': 'payment_method_update' } })
    await p.createBillingPortalSession({ customerId, returnUrl: 'https://app.test/', flow: 'subscription_cancel', subscriptionId: 'sub_1' })
    expect(last().form).toMatchObject({ 'flow_data[type]': 'subscription_cancel', 'flow_data[subscription_cancel][subscription]': 'sub_1' })
  })

  it('detaches and deletes quietly when the processor has already forgotten them', async () => {
    const p = processor()
    await expect(p.deleteCustomer('cus_gone')).resolves.toBeUndefined()
    await expect(p.detachCard('pm_card_visa')).resolves.toBeUndefined()
    expect(last()).toMatchObject({ path: '/v1/payment_methods/pm_card_visa/detach' })
  })
})

describe('processor choice', () => {
  it('is offline without a key and Stripe with one', () => {
    // Neither touches the database until asked something.
    const database = { kind: 'pglite', db: {}, close: async () => undefined } as unknown as DatabaseHandle
    expect(processorFromConfig(loadConfig({}), database, () => new Date(), 'http://x').mode).toBe('offline')
    expect(processorFromConfig(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1' }), database, () => new Date(), 'http://x').mode).toBe('live')
  })

  it('reads STRIPE_API_BASE as host, port and protocol', () => {
    expect(hostOptions('http://127.0.0.1:12111')).toEqual({ host: '127.0.0.1', port: 12111, protocol: 'http' })
    expect(hostOptions('https://stripe.internal')).toEqual({ host: 'stripe.internal', port: 443, protocol: 'https' })
    expect(hostOptions(undefined)).toEqual({})
  })
})

describe('Stripe-Signature verification', () => {
  const secret = 'whsec_test_secret'
  const payload = JSON.stringify({ id: 'evt_1', type: 'payment_intent.succeeded' })
  const now = Date.now()
  const at = Math.floor(now / 1000)

  it('accepts the documented HMAC of "t.payload"', () => {
    expect(verifyStripeSignature(payload, signStripePayload(payload, secret, at), secret, now)).toEqual({ valid: true })
  })

  it('refuses any changed byte of the payload, the wrong secret, and a missing header', () => {
    const header = signStripePayload(payload, secret, at)
    for (let i = 0; i < payload.length; i += 7) {
      const changed = payload.slice(0, i) + String.fromCharCode(payload.charCodeAt(i) ^ 1) + payload.slice(i + 1)
      expect(verifyStripeSignature(changed, header, secret, now).valid).toBe(false)
    }
    expect(verifyStripeSignature(payload, signStripePayload(payload, 'whsec_other', at), secret, now).valid).toBe(false)
    expect(verifyStripeSignature(payload, undefined, secret, now).valid).toBe(false)
    expect(verifyStripeSignature(payload, 'garbage', secret, now).valid).toBe(false)
  })

  it('says which of missing, malformed, wrong or outside the tolerance a refused signature is', () => {
    const reason = (header: string | undefined) => {
      const check = verifyStripeSignature(payload, header, secret, now)
      return check.valid ? 'valid' : check.reason
    }
    expect(reason(undefined)).toBe('The Stripe-Signature header is missing.')
    expect(reason('')).toBe('The Stripe-Signature header is missing.')
    const malformed = 'The Stripe-Signature header is malformed: it needs t=<unix seconds> and at least one v1=<hex signature>.'
    for (const header of ['garbage', `t=${at}`, 'v1=abc', `t=soon,v1=${'0'.repeat(64)}`, `t=${at},v0=${'0'.repeat(64)}`]) expect(reason(header), header).toBe(malformed)
    const wrong = 'The signature does not match the payload and this receiver\'s signing secret.'
    expect(reason(signStripePayload(payload, 'whsec_other', at))).toBe(wrong)
    expect(reason(`t=${at},v1=${'0'.repeat(64)}`)).toBe(wrong)
    expect(reason(signStripePayload(payload, secret, at).replace(`t=${at}`, `t=${at - 1}`))).toBe(wrong)
    expect(reason(signStripePayload(payload, secret, at - SIGNATURE_TOLERANCE_SECONDS - 1))).toBe('The signature timestamp is outside the tolerance (300 s).')
    expect(reason(signStripePayload(payload, secret, at + SIGNATURE_TOLERANCE_SECONDS + 1))).toBe('The signature timestamp is outside the tolerance (300 s).')
  })

  it('refuses timestamps outside the tolerance either way', () => {
    const old = signStripePayload(payload, secret, at - SIGNATURE_TOLERANCE_SECONDS - 1)
    const ahead = signStripePayload(payload, secret, at + SIGNATURE_TOLERANCE_SECONDS + 1)
    expect(verifyStripeSignature(payload, old, secret, now).valid).toBe(false)
    expect(verifyStripeSignature(payload, ahead, secret, now).valid).toBe(false)
    expect(verifyStripeSignature(payload, signStripePayload(payload, secret, at - 290), secret, now).valid).toBe(true)
  })
})

describe('Stripe processor when the processor fails', () => {
  // Short timeouts, so a lost answer is noticed in a test's time (long enough that a busy
  // machine's slow answer is not taken for one); the SDK's own retry delays apply. A slow
  // answer would only add an attempt with the same key, so attempts are counted at least.
  const flaky = (retries = 2) => stripeProcessor({ secretKey: api.secretKey, apiBase: api.url, maxNetworkRetries: retries, timeoutMs: 1_000 })
  const customer = async () => (await processor().createCustomer({ email: 'faults@example.com', name: 'F' })).customerId
  const intentInput = async (key: string) => ({
    customerId: await customer(),
    paymentMethodId: 'pm_card_visa',
    amountPence: 4200,
    captureMethod: 'manual' as const,
    offSession: false,
    returnUrl: 'https://app.test/r',
    description: 'faults',
    metadata: {},
    idempotencyKey: key,
  })
  const effectsOf = (key: string) => api.effects.filter((e) => e.idempotencyKey === key)
  const attemptsWith = (key: string) => api.requests.filter((r) => r.headers['idempotency-key'] === key).length

  it('retries a charge whose answer was lost with the same key, and the processor charges once', async () => {
    const key = `lost-${Date.now()}`
    const input = await intentInput(key)
    api.faultNext(1, 'timeout')
    const intent = (await flaky().createPaymentIntent(input))._unsafeUnwrap()
    expect(intent.status).toBe('requires_capture')
    expect(attemptsWith(key)).toBeGreaterThanOrEqual(2)
    expect(effectsOf(key).map((e) => e.body.id)).toEqual([intent.id])
  })

  it('retries a capture after 500s and a refund whose answer was lost, each done once', async () => {
    const intent = (await processor().createPaymentIntent(await intentInput(`pay-${Date.now()}`)))._unsafeUnwrap()
    const captureKey = `capture-${intent.id}`
    api.faultNext(2, 500)
    expect(await flaky().capturePaymentIntent(intent.id, { idempotencyKey: captureKey })).toMatchObject({ status: 'succeeded', amountReceivedPence: 4200 })
    expect(attemptsWith(captureKey)).toBeGreaterThanOrEqual(3)
    expect(effectsOf(captureKey)).toHaveLength(1)
    const refundKey = `refund-${intent.id}`
    api.faultNext(1, 'timeout')
    expect(await flaky().refundPayment(intent.id, { amountPence: 1200, idempotencyKey: refundKey })).toMatchObject({ amountPence: 1200 })
    expect(attemptsWith(refundKey)).toBeGreaterThanOrEqual(2)
    expect(effectsOf(refundKey)).toHaveLength(1)
    expect((await processor().retrievePaymentIntent(intent.id)).amountReceivedPence).toBe(3000)
  })

  it('throws ProcessorUnavailable once retries run out, or at once on a rate limit, having done nothing', async () => {
    const key = `down-${Date.now()}`
    const input = await intentInput(key)
    api.faultNext(3, 500)
    const down = await flaky().createPaymentIntent(input).catch((error: unknown) => error)
    expect(down).toBeInstanceOf(ProcessorUnavailable)
    expect([attemptsWith(key), effectsOf(key).length]).toEqual([3, 0])
    api.faultNext(1, 429)
    const limited = await flaky().createPaymentIntent(input).catch((error: unknown) => error)
    expect(limited).toBeInstanceOf(ProcessorUnavailable)
    expect([attemptsWith(key), effectsOf(key).length]).toEqual([4, 0])
    // Later, the same key goes through once.
    expect((await flaky().createPaymentIntent(input))._unsafeUnwrap().status).toBe('requires_capture')
    expect(effectsOf(key)).toHaveLength(1)
  })

  it('subscribes once when the caller retries later with its key after the SDK gave up (the outbox does)', async () => {
    const customerId = await customer()
    const key = `subscription.create:${Date.now()}`
    const input = { customerId, priceId: 'price_monthly', trialPeriodDays: 0, idempotencyKey: key }
    api.faultNext(2, 'timeout', /^POST \/v1\/subscriptions$/)
    await expect(flaky(1).createSubscription(input)).rejects.toBeInstanceOf(ProcessorUnavailable)
    const later = await flaky(1).createSubscription(input)
    expect(effectsOf(key).map((e) => e.body.id)).toEqual([later.subscriptionId])
  })

  it('lets a declined card and a request this code got wrong through as they are', async () => {
    const declined = await flaky().createPaymentIntent({ ...(await intentInput(`declined-${Date.now()}`)), paymentMethodId: 'pm_card_chargeDeclined' })
    expect(declined._unsafeUnwrapErr().type).toBe('PaymentFailed')
    const wrong = await flaky().capturePaymentIntent('pi_nothing', { idempotencyKey: `wrong-${Date.now()}` }).catch((error: unknown) => error)
    expect(wrong).toBeInstanceOf(Error)
    expect(wrong).not.toBeInstanceOf(ProcessorUnavailable)
  })
})
