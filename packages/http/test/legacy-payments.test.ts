import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from './support/harness'

const HOUR = 3_600_000
type Payment = { id: number; booking_id: number; status: string; amount: string; currency: string; created_at: string; client_secret: string | null; redirectURL: string | null }
type Problem = { code: string }

/** The legacy `/api/v1/payments` family on the offline processor: list, create, read, change method, release. */
describe.each(testDatabaseKinds())('legacy payments on %s', (kind) => {
  let t: TestContext
  let tutor: Awaited<ReturnType<TestContext['register']>>
  let teachId: number
  let levelId: number
  let slot = 0
  beforeAll(async () => {
    t = await createTestContext(kind)
    tutor = await t.bookableTutor()
    ;({ teachId, levelId } = await t.openOnlineTeach(tutor, '30.00'))
  })
  afterAll(() => t.close())

  /** A booking two days out (each on its own hour), awaiting payment. */
  async function book(student: { token: string }) {
    const start = new Date(Math.ceil(Date.now() / HOUR) * HOUR + 2 * 24 * HOUR + ++slot * 2 * HOUR)
    const res = await t.request<{ data: { id: number } }>('POST', '/api/bookings', {
      token: student.token,
      body: { teach_id: teachId, subject_level_id: levelId, lesson_type: 3, start: start.toISOString(), finish: new Date(start.getTime() + HOUR).toISOString() },
    })
    expect(res.status, res.text).toBe(201)
    return res.body.data.id
  }
  const pay = (token: string, bookingId: number, method = 'pm_card_visa') =>
    t.request<{ data: Payment }>('POST', '/api/v1/payments', { token, body: { booking_id: bookingId, payment_method: method } })
  const bookingState = async (id: number) => (await t.db.selectFrom('bookings').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state

  it("creates as pay does, with the payment's id; lists the caller's (staff: all); reads to payer, tutor and staff only", async () => {
    const student = await t.register('student')
    const stranger = await t.register('student')
    const staff = await t.internalUser()
    const bookingId = await book(student)
    const created = await pay(student.token, bookingId)
    expect(created.status, created.text).toBe(200)
    const row = await t.db.selectFrom('payments').selectAll().where('booking_id', '=', bookingId).executeTakeFirstOrThrow()
    expect(created.body.data).toEqual({
      id: row.id,
      booking_id: bookingId,
      status: 'requires_capture',
      amount: '33.00',
      currency: 'GBP',
      created_at: row.created_at.toISOString(),
      client_secret: row.client_secret,
      redirectURL: null,
      payment_id: row.id,
      booking_state: 5,
    })
    expect(row.client_secret).toMatch(/_secret_/)
    expect(await bookingState(bookingId)).toBe(5)

    const second = await book(student)
    await pay(student.token, second)
    const mine = await t.request<{ data: Payment[]; meta: { total: number; per_page: number } }>('GET', '/api/v1/payments?per_page=1', { token: student.token })
    expect(mine.status).toBe(200)
    expect(mine.body.meta).toMatchObject({ total: 2, per_page: 1 })
    expect(mine.body.data.map((p) => p.booking_id)).toEqual([second])
    expect((await t.request<{ data: Payment[] }>('GET', '/api/v1/payments', { token: stranger.token })).body.data).toEqual([])
    const all = await t.request<{ data: Payment[] }>('GET', '/api/v1/payments?per_page=100', { token: staff.token })
    expect(all.body.data.map((p) => p.booking_id)).toEqual(expect.arrayContaining([bookingId, second]))

    const asPayer = await t.request<{ data: Payment }>('GET', `/api/v1/payments/${row.id}`, { token: student.token })
    expect(asPayer.body.data).toMatchObject({ id: row.id, client_secret: row.client_secret })
    const asTutor = await t.request<{ data: Payment }>('GET', `/api/v1/payments/${row.id}`, { token: tutor.token })
    expect(asTutor.body.data).toMatchObject({ id: row.id, status: 'requires_capture', client_secret: null })
    expect((await t.request('GET', `/api/v1/payments/${row.id}`, { token: staff.token })).status).toBe(200)
    expect((await t.request<Problem>('GET', `/api/v1/payments/${row.id}`, { token: stranger.token })).body.code).toBe('not_found')
    expect((await t.request('GET', `/api/v1/payments/${row.id}`)).status).toBe(401)
    expect((await t.request('GET', '/api/v1/payments/999999', { token: staff.token })).status).toBe(404)
  })

  it('replaces the method of a declined payment and tries again; refuses one that holds money', async () => {
    const student = await t.register('student')
    const bookingId = await book(student)
    const declined = await pay(student.token, bookingId, 'pm_card_chargeDeclined')
    expect(declined.status).toBe(402)
    const failed = await t.db.selectFrom('payments').selectAll().where('booking_id', '=', bookingId).executeTakeFirstOrThrow()
    expect(failed.status).toBe('requires_payment_method')

    expect((await t.request<Problem>('PUT', `/api/v1/payments/${failed.id}`, { token: tutor.token, body: { payment_method: 'pm_card_visa' } })).status).toBe(403)
    expect((await t.request<Problem>('PUT', `/api/v1/payments/${failed.id}`, { token: student.token, body: { payment_method: 'visa' } })).status).toBe(422)
    const retried = await t.request<{ data: Payment }>('PUT', `/api/v1/payments/${failed.id}`, { token: student.token, body: { payment_method: 'pm_card_visa' } })
    expect(retried.status, retried.text).toBe(200)
    expect(retried.body.data).toMatchObject({ booking_id: bookingId, status: 'requires_capture' })
    // That payment is retried (CONTRACT §17): the same id, no other row.
    expect(retried.body.data.id).toBe(failed.id)
    expect(await bookingState(bookingId)).toBe(5)
    expect(await t.db.selectFrom('payments').select('status').where('booking_id', '=', bookingId).execute()).toEqual([{ status: 'requires_capture' }])

    const again = await t.request<Problem>('PUT', `/api/v1/payments/${retried.body.data.id}`, { token: student.token, body: { payment_method: 'pm_card_mastercard' } })
    expect(again.status).toBe(409)
    expect(again.body.code).toBe('invalid_state_transition')
  })

  it('releases an attempt never completed (the booking stays payable), a held authorisation by cancelling, never a capture', async () => {
    const student = await t.register('student')
    const bookingId = await book(student)
    const pending = await pay(student.token, bookingId, 'pm_card_threeDSecure2Required')
    expect(pending.body.data).toMatchObject({ status: 'requires_action', redirectURL: expect.any(String) })
    const released = await t.request<{ data: Payment }>('DELETE', `/api/v1/payments/${pending.body.data.id}`, { token: student.token })
    expect(released.status, released.text).toBe(200)
    expect(released.body.data.status).toBe('canceled')
    const intent = (await t.db.selectFrom('payments').select('processor_payment_intent_id').where('id', '=', pending.body.data.id).executeTakeFirstOrThrow()).processor_payment_intent_id!
    expect((await t.db.selectFrom('offline_payment_intents').select('status').where('id', '=', intent).executeTakeFirstOrThrow()).status).toBe('canceled')
    expect(await bookingState(bookingId)).toBe(3)

    // Paid properly afterwards, then released two days ahead: the booking is cancelled and refunded in full.
    const held = await pay(student.token, bookingId)
    expect(held.body.data.status).toBe('requires_capture')
    expect((await t.request('DELETE', `/api/v1/payments/${held.body.data.id}`, { token: tutor.token })).status).toBe(403)
    const cancelled = await t.request<{ data: Payment }>('DELETE', `/api/v1/payments/${held.body.data.id}`, { token: student.token })
    expect(cancelled.status, cancelled.text).toBe(200)
    expect(await bookingState(bookingId)).toBe(0)
    expect((await t.outbox({ kind: 'processor_sync', topic: 'payment.cancel' })).map((m) => (m.payload as { data: { paymentId: number } }).data.paymentId)).toContain(held.body.data.id)

    const capturedBooking = await book(student)
    const captured = await pay(student.token, capturedBooking)
    await t.db.updateTable('payments').set({ status: 'succeeded', captured_pence: 3300 }).where('id', '=', captured.body.data.id).execute()
    const refused = await t.request<Problem>('DELETE', `/api/v1/payments/${captured.body.data.id}`, { token: student.token })
    expect(refused.status).toBe(409)
    expect(refused.body.code).toBe('invalid_state_transition')
  })
})
