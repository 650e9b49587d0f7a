import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startStripeStandIn, testDatabaseKinds, type StripeStandIn } from '@tutoring/adapters/testing'
import { BOOKING_STATES } from '@tutoring/domain/booking'
import { recordFinding } from '../support/findings'
import { createTestContext, type TestContext, type TestResponse } from '../support/harness'

const HOUR = 3_600_000
const DAY = 24 * HOUR

type Problem = { type: string; title: string; status: number; detail: string; code: string }
type Paid = { data: { status: string; client_secret: string | null } }
type Booking = { data: { id: number; state_name: string } }

/**
 * Issue 14: the processor stand-in answers 500, 429 or nothing at all (the work done, the
 * answer lost) for the next calls. The SDK retries with the same idempotency key; when its
 * retries run out the client gets 503 `processor_unavailable` and may simply try again; the
 * outbox retries its processor calls later. The stand-in counts what it carried out, per
 * idempotency key: never a second authorisation, capture, void or refund.
 */
describe.each(testDatabaseKinds())('processor faults, on %s', (kind) => {
  let api: StripeStandIn
  let t: TestContext
  let requests = 0
  beforeAll(async () => {
    api = await startStripeStandIn()
    t = await createTestContext(kind, { STRIPE_SECRET_KEY: api.secretKey, STRIPE_API_BASE: api.url, STRIPE_TIMEOUT_MS: '1000', STRIPE_MAX_NETWORK_RETRIES: '2' })
  })
  afterAll(async () => {
    await t?.close()
    await api?.close()
  })

  const call = async <T>(method: string, url: string, options: Parameters<TestContext['request']>[2] = {}): Promise<TestResponse<T>> => {
    requests++
    return t.request<T>(method, url, options)
  }

  it('answers 503 processor_unavailable when retries run out, and charges, voids and refunds once whatever fails', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'Processor faults',
      tried: 'the processor stand-in answering 500 (past the SDK\u2019s 2 retries), 429, and doing the work but losing the answer, on pay, on the outbox\u2019s void and on a refund',
      held: '503 processor_unavailable with Retry-After, the booking still payable and the Idempotency-Key free for the retry; every retry with the same processor key; one authorisation per payment, one void, one refund',
    })
    const tutor = await t.bookableTutor()
    const student = await t.register('student')
    const subject = await t.db.selectFrom('subjects').select('id').where('title', '=', 'Mathematics').executeTakeFirstOrThrow()
    const level = await t.db.selectFrom('subject_levels').select('id').where('title', '=', 'GCSE').executeTakeFirstOrThrow()
    const teach = await call<{ data: { id: number } }>('POST', '/api/v1/teaches', { token: tutor.token, body: { subject_id: subject.id, subject_level_ids: [level.id], hourly_rate: '30.00' } })
    expect(teach.status, teach.text).toBe(201)
    for (const day of ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY']) {
      const entry = await call('POST', '/api/v1/day-availabilities', { token: tutor.token, body: { day, slots: [{ from: '00:00', to: '24:00' }], lesson_types: ['online'], buffer_minutes: 0 } })
      expect(entry.status, entry.text).toBe(201)
    }
    const londonHour = (at: number) => Number(new Intl.DateTimeFormat('en-GB', { hour: '2-digit', hourCycle: 'h23', timeZone: 'Europe/London' }).format(new Date(at)))
    const hours = Array.from({ length: 24 }, (_, i) => Math.ceil(Date.now() / HOUR) * HOUR + 2 * DAY + i * 2 * HOUR).filter((at) => londonHour(at) !== 23)
    const book = async (at: number) => {
      const res = await call<Booking>('POST', '/api/bookings', {
        token: student.token,
        body: { teach_id: teach.body.data.id, subject_level_id: level.id, lesson_type: 3, start: new Date(at).toISOString(), finish: new Date(at + HOUR).toISOString() },
      })
      expect(res.status, res.text).toBe(201)
      return res.body.data.id
    }
    const pay = (bookingId: number, key: string) =>
      call<Paid & Problem>('POST', '/api/payments/pay', { token: student.token, body: { booking_id: bookingId, payment_method: 'pm_card_visa' }, headers: { 'idempotency-key': key } })
    const stateOf = async (bookingId: number) => (await call<Booking>('GET', `/api/bookings/${bookingId}`, { token: student.token })).body.data.state_name
    const intentsFor = (bookingId: number) =>
      api.effects.filter((e) => e.path === '/v1/payment_intents' && e.status === 200 && (e.body.metadata as Record<string, string>).booking_id === String(bookingId))

    // Retries run out (500 three times): a clear 503, nothing charged, the booking still payable.
    const first = await book(hours[0]!)
    api.faultNext(3, 500, /^POST \/v1\/payment_intents$/)
    const down = await pay(first, 'pay-first')
    expect([down.status, down.headers.get('content-type'), down.body.code, down.headers.get('retry-after')]).toEqual([503, 'application/problem+json; charset=utf-8', 'processor_unavailable', '5'])
    expect(down.body.detail).not.toMatch(/stripe|api_error|Something went wrong/i)
    expect(intentsFor(first)).toHaveLength(0)
    expect(await stateOf(first)).toBe('AWAITING_PAYMENT')
    // A rate limit is not retried by the SDK: 503 at once.
    api.faultNext(1, 429, /^POST \/v1\/payment_intents$/)
    expect((await pay(first, 'pay-first')).body.code).toBe('processor_unavailable')
    // The client tries again with the same key; this time the processor's answer is lost once and the SDK's retry is replayed.
    api.faultNext(1, 'timeout', /^POST \/v1\/payment_intents$/)
    const paid = await pay(first, 'pay-first')
    expect([paid.status, paid.body.data.status]).toEqual([200, 'requires_capture'])
    expect(await stateOf(first)).toBe('REQUIRES_CAPTURE')
    const payKeys = new Set(api.requests.filter((r) => r.path === '/v1/payment_intents').map((r) => r.headers['idempotency-key']))
    expect([...payKeys]).toHaveLength(1)
    expect(intentsFor(first)).toHaveLength(1)
    const intentId = String(intentsFor(first)[0]!.body.id)

    // Cancelled a day ahead: the void goes through the outbox; the processor fails past the
    // SDK's retries, the outbox keeps it and tries again later, and the void happens once.
    const cancel = await call('PUT', `/api/bookings/${first}/cancel`, { token: student.token })
    expect(cancel.status, cancel.text).toBe(200)
    const voidPath = `/v1/payment_intents/${intentId}/cancel`
    api.faultNext(3, 500, new RegExp(`^POST ${voidPath}$`))
    expect(await t.infra.deliverOutbox()).toMatchObject({ failed: 1 })
    await t.db.updateTable('outbox').set({ available_at: new Date(Date.now() - 1_000) }).where('delivered_at', 'is', null).execute()
    api.faultNext(1, 'timeout', new RegExp(`^POST ${voidPath}$`))
    expect(await t.infra.deliverOutbox()).toMatchObject({ failed: 0 })
    expect(api.effects.filter((e) => e.path === voidPath && e.status === 200)).toHaveLength(1)
    expect(api.objects.get(intentId)).toMatchObject({ status: 'canceled' })

    // A captured payment refunded while answers are lost: one refund.
    const second = await book(hours[1]!)
    expect((await pay(second, 'pay-second')).status).toBe(200)
    const secondIntent = String(intentsFor(second)[0]!.body.id)
    const payment = await t.db.selectFrom('payments').select('id').where('booking_id', '=', second).executeTakeFirstOrThrow()
    api.faultNext(1, 'timeout', /^POST \/v1\/payment_intents\/.*\/capture$/)
    await t.infra.processor.capturePaymentIntent(secondIntent, { idempotencyKey: `capture-${payment.id}` })
    await t.db.updateTable('payments').set({ status: 'succeeded', captured_pence: Number(api.objects.get(secondIntent)!.amount_received) }).where('id', '=', payment.id).execute()
    await t.db.updateTable('bookings').set({ state: BOOKING_STATES.PAYED }).where('id', '=', second).execute()
    const refund = await call('PUT', `/api/bookings/${second}/cancel`, { token: tutor.token })
    expect(refund.status, refund.text).toBe(200)
    api.faultNext(1, 'timeout', /^POST \/v1\/refunds$/)
    api.faultNext(1, 500, /^POST \/v1\/refunds$/)
    expect(await t.infra.deliverOutbox()).toMatchObject({ failed: 0 })
    const refunds = api.effects.filter((e) => e.path === '/v1/refunds' && e.status === 200)
    expect(refunds.map((r) => r.body.payment_intent)).toEqual([secondIntent])
    expect(await stateOf(second)).toBe('REFUNDED')

    const keysUsedTwice = new Set(api.effects.filter((e) => e.idempotencyKey !== null).map((e) => e.idempotencyKey)).size !== api.effects.filter((e) => e.idempotencyKey !== null).length
    expect(keysUsedTwice).toBe(false)
    const injected = Object.values(api.faultsInjected).reduce((a, b) => a + b, 0)
    finding.figures = { requests, 'processor calls': api.requests.length, 'faults injected': injected, lost: 0, duplicated: intentsFor(first).length - 1 + refunds.length - 1 }
  })
})
