import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signStripePayload, testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from './support/harness'
import { storedBooking } from './support/stored-booking'

const SECRET = 'whsec_payments_test'
type Answer = { data: { received: true; outcome: string; reason: string | null } }
let counter = 0
const eventId = () => `evt_${Date.now()}_${++counter}`

describe.each(testDatabaseKinds())('payment webhooks on %s', (kind) => {
  let t: TestContext
  let unconfigured: TestContext
  beforeAll(async () => {
    ;[t, unconfigured] = await Promise.all([createTestContext(kind, { STRIPE_WEBHOOK_SECRET: SECRET }), createTestContext(kind)])
  })
  afterAll(async () => {
    await Promise.all([t.close(), unconfigured.close()])
  })

  /** A booking in AWAITING_PAYMENT with its payment intent, as the booking flow would leave it. */
  async function booking(state = 3) {
    const { bookingId, student } = await storedBooking(t, state, counter)
    const intent = `pi_test_${Date.now()}_${++counter}`
    await t.db
      .insertInto('payments')
      .values({ booking_id: bookingId, user_id: student.user.id, processor_payment_intent_id: intent, processor_payment_method_id: 'pm_x', status: 'requires_confirmation', amount_pence: 3300, client_secret: null, redirect_url: null, authorize_at: null, capture_at: null, last_error: null })
      .execute()
    return { bookingId, intent }
  }
  const bookingState = async (id: number) => (await t.db.selectFrom('bookings').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state
  const payment = (intent: string) => t.db.selectFrom('payments').selectAll().where('processor_payment_intent_id', '=', intent).executeTakeFirstOrThrow()
  const timeline = (id: number) => t.db.selectFrom('booking_events').select(['kind', 'data']).where('booking_id', '=', id).orderBy('id').execute()

  const intentEvent = (type: string, intent: string, status: string, extra: Record<string, unknown> = {}, id = eventId()) => ({
    id,
    object: 'event',
    type,
    data: { object: { id: intent, object: 'payment_intent', status, amount: 3300, amount_received: status === 'succeeded' ? 3300 : 0, ...extra } },
  })
  const send = (event: unknown, options: { secret?: string; at?: number; raw?: string; header?: string | null; ctx?: TestContext } = {}) => {
    const payload = options.raw ?? JSON.stringify(event)
    const signed = options.header === undefined ? signStripePayload(JSON.stringify(event), options.secret ?? SECRET, options.at) : options.header
    return (options.ctx ?? t).request<Answer>('POST', '/api/v1/payments/webhooks/accounts', {
      raw: payload,
      headers: { 'content-type': 'application/json', ...(signed === null ? {} : { 'stripe-signature': signed }) },
    })
  }

  it('moves a manual-capture booking to REQUIRES_CAPTURE, then PAYED, recording the timeline', async () => {
    const { bookingId, intent } = await booking()
    const held = await send(intentEvent('payment_intent.amount_capturable_updated', intent, 'requires_capture', { amount_capturable: 3300 }))
    expect(held.status).toBe(200)
    expect(held.body.data).toEqual({ received: true, outcome: 'handled', reason: null })
    expect(await bookingState(bookingId)).toBe(5)
    expect((await payment(intent)).status).toBe('requires_capture')

    await send(intentEvent('payment_intent.succeeded', intent, 'succeeded'))
    expect(await bookingState(bookingId)).toBe(1)
    expect(await payment(intent)).toMatchObject({ status: 'succeeded', captured_pence: 3300 })
    const events = await timeline(bookingId)
    expect(events.map((e) => e.kind)).toEqual(['payment.amount_capturable_updated', 'payment.succeeded'])
    expect(events[1]!.data).toMatchObject({ payment_intent: intent, from: 'REQUIRES_CAPTURE', to: 'PAYED' })
  })

  it('moves an immediate payment straight to PAYED', async () => {
    const { bookingId, intent } = await booking()
    await send(intentEvent('payment_intent.succeeded', intent, 'succeeded'))
    expect(await bookingState(bookingId)).toBe(1)
  })

  it('records a failure and a cancellation on the payment only', async () => {
    const { bookingId, intent } = await booking()
    await send(intentEvent('payment_intent.payment_failed', intent, 'requires_payment_method', { last_payment_error: { message: 'Your card was declined.' } }))
    expect(await payment(intent)).toMatchObject({ status: 'requires_payment_method', last_error: 'Your card was declined.' })
    await send(intentEvent('payment_intent.canceled', intent, 'canceled'))
    expect((await payment(intent)).status).toBe('canceled')
    expect(await bookingState(bookingId)).toBe(3)
  })

  it("records a refund's total on the payment", async () => {
    const { bookingId, intent } = await booking(1)
    const res = await send({ id: eventId(), type: 'charge.refunded', data: { object: { id: 'ch_1', object: 'charge', payment_intent: intent, amount_refunded: 1650, amount_captured: 3300 } } })
    expect(res.body.data.outcome).toBe('handled')
    expect((await payment(intent)).refunded_pence).toBe(1650)
    expect(await bookingState(bookingId)).toBe(1)
    expect((await timeline(bookingId)).map((e) => e.kind)).toEqual(['payment.refunded'])
  })

  it('answers a duplicate 200 and changes nothing', async () => {
    const { bookingId, intent } = await booking()
    const event = intentEvent('payment_intent.amount_capturable_updated', intent, 'requires_capture')
    await send(event)
    await t.db.updateTable('bookings').set({ state: 3 }).where('id', '=', bookingId).execute()
    const again = await send(event)
    expect(again.status).toBe(200)
    expect(again.body.data.outcome).toBe('duplicate')
    expect(await bookingState(bookingId)).toBe(3)
    expect(await timeline(bookingId)).toHaveLength(1)
  })

  it('ignores other types and unknown payment intents with 200', async () => {
    expect((await send({ id: eventId(), type: 'customer.created', data: { object: { id: 'cus_1' } } })).body.data).toMatchObject({ outcome: 'ignored', reason: 'unknown_type' })
    expect((await send(intentEvent('payment_intent.succeeded', 'pi_unknown', 'succeeded'))).body.data).toMatchObject({ outcome: 'ignored', reason: 'unknown_payment' })
  })

  describe('signature', () => {
    it('refuses any changed byte, the wrong secret, a stale or future timestamp, a missing header: 400, nothing changes', async () => {
      const { bookingId, intent } = await booking()
      const event = intentEvent('payment_intent.succeeded', intent, 'succeeded')
      const payload = JSON.stringify(event)
      const header = signStripePayload(payload, SECRET)
      const tries = [
        send(event, { raw: payload.replace('succeeded', 'succeedee'), header }),
        send(event, { raw: `${payload} `, header }),
        send(event, { header: header.replace(/v1=(.)/, (_, c: string) => `v1=${c === 'a' ? 'b' : 'a'}`) }),
        send(event, { secret: 'whsec_wrong' }),
        send(event, { at: Math.floor(Date.now() / 1000) - 301 }),
        // Well past the tolerance: the server checks later than this line runs, and a post-dated
        // timestamp only 1 s past it was accepted when the machine was busy.
        send(event, { at: Math.floor(Date.now() / 1000) + 600 }),
        send(event, { header: null }),
        send(event, { header: 'v1=abc' }),
        send(event, { ctx: unconfigured }),
      ]
      const answers = await Promise.all(tries)
      for (const res of answers) {
        expect(res.status).toBe(400)
        expect((res.body as unknown as { code: string }).code).toBe('invalid_signature')
      }
      // The detail says which: wrong, outside the tolerance, missing, malformed, unconfigured.
      expect(answers.map((res) => (res.body as unknown as { detail: string }).detail.split(/[:(]/)[0]!.trim())).toEqual([
        ...Array<string>(4).fill("The signature does not match the payload and this receiver's signing secret."),
        'The signature timestamp is outside the tolerance',
        'The signature timestamp is outside the tolerance',
        'The Stripe-Signature header is missing.',
        'The Stripe-Signature header is malformed',
        'This webhook receiver is not configured.',
      ])
      expect(await bookingState(bookingId)).toBe(3)
      expect((await payment(intent)).status).toBe('requires_confirmation')
      const seen = await t.db.selectFrom('webhook_events').select('event_id').where('event_id', '=', event.id).execute()
      expect(seen).toEqual([])
      // The same event, signed properly, is then handled: the refusals remembered nothing.
      expect((await send(event)).body.data.outcome).toBe('handled')
    })

    it('refuses a signed body that is not an event with 422 and remembers nothing', async () => {
      const res = await send({ id: eventId(), type: 'payment_intent.succeeded', data: { object: { id: 'pi_x' } } })
      expect(res.status).toBe(422)
    })
  })
})
