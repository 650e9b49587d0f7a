import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addSearchableTutor, catalogOf, testDatabaseKinds } from '@tutoring/adapters/testing'
import type { PaymentProcessor } from '@tutoring/domain/payments'
import { createTestContext, type TestContext } from '../support/harness'
import { recordFinding, Tally } from '../support/findings'

type One<T> = { data: T }
type Day = { date: string; times: Array<{ start: string }> }

/**
 * Issue 13: a 3-D Secure payment's `redirectURL` led back to `/api/payments/return`, which
 * answered 404, so the customer's browser ended on an error. It must show the outcome.
 */
describe.each(testDatabaseKinds())('the page a customer returns to after 3-D Secure, on %s', (kind) => {
  let t: TestContext
  let teach = { id: 0, levelId: 0 }
  /** The bank's check is passed once the test says so: the processor then reports the authorisation. */
  const completed = new Set<string>()
  const processor = (offline: PaymentProcessor): PaymentProcessor => ({
    ...offline,
    async retrievePaymentIntent(id) {
      const intent = await offline.retrievePaymentIntent(id)
      return completed.has(id) ? { ...intent, status: 'requires_capture', amountCapturablePence: intent.amountPence, redirectUrl: null } : intent
    },
  })

  beforeAll(async () => {
    t = await createTestContext(kind, {}, { processor })
    const tutorId = await addSearchableTutor(t, await catalogOf(t))
    const row = await t.db.selectFrom('teaches').select('id').where('tutor_id', '=', tutorId).executeTakeFirstOrThrow()
    const level = await t.db.selectFrom('teach_subject_levels').select('subject_level_id').where('teach_id', '=', row.id).executeTakeFirstOrThrow()
    teach = { id: row.id, levelId: level.subject_level_id }
  })
  afterAll(() => t.close())

  /** A free hour one to five days ahead, as availability offers it. */
  async function freeHour(): Promise<{ start: string; finish: string }> {
    const days = (await t.request<One<{ availabilities: Day[] }>>('GET', `/api/availabilites?teach_id=${teach.id}`)).body.data.availabilities
    const soon = Date.now() + 26 * 3_600_000
    for (const day of days) {
      for (const time of day.times) {
        const start = new Date(`${day.date}T${time.start}:00Z`)
        if (start.getTime() > soon && start.getTime() < Date.now() + 5 * 86_400_000) return { start: start.toISOString(), finish: new Date(start.getTime() + 3_600_000).toISOString() }
      }
    }
    throw new Error('no free hour in the next days')
  }

  it('shows the outcome as an HTML page, refreshed from the processor, and moves the booking on', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'Payments: the 3-D Secure return page',
      tried: "following a payment's redirectURL before and after the bank's check, and with an unknown payment",
      held: 'an HTML outcome page (200), the booking authorised once the processor says so; 404 page for an unknown payment',
    })
    const tally = new Tally()
    const student = await t.register('student')
    const booking = await t.request<One<{ id: number }>>('POST', '/api/bookings', {
      token: student.token,
      body: { teach_id: teach.id, subject_level_id: teach.levelId, lesson_type: 3, ...(await freeHour()) },
    })
    expect(booking.status, booking.text).toBe(201)
    const paid = await t.request<One<{ status: string; redirectURL: string; payment_id: number }>>('POST', '/api/payments/pay', {
      token: student.token,
      body: { booking_id: booking.body.data.id, payment_method: 'pm_card_threeDSecure2Required' },
    })
    expect(paid.body.data.status).toBe('requires_action')
    const target = new URL(paid.body.data.redirectURL)
    expect(target.pathname).toBe('/api/payments/return')
    expect(target.searchParams.get('payment_id')).toBe(String(paid.body.data.payment_id))

    const before = tally.send(await t.request('GET', `${target.pathname}${target.search}`), [])
    expect(before.status).toBe(200)
    expect(before.headers.get('content-type')).toMatch(/^text\/html/)
    expect(before.text).toContain('Payment not finished')

    const intentId = target.searchParams.get('payment_intent')!
    completed.add(intentId)
    const after = tally.send(await t.request('GET', `${target.pathname}${target.search}`), [])
    expect(after.status).toBe(200)
    expect(after.text).toContain('Payment authorised')
    const detail = await t.request<One<{ state_name: string }>>('GET', `/api/bookings/${booking.body.data.id}`, { token: student.token })
    expect(detail.body.data.state_name).toBe('REQUIRES_CAPTURE')

    const unknown = tally.send(await t.request('GET', '/api/payments/return?payment_id=2147483000'))
    expect([unknown.status, unknown.headers.get('content-type')?.startsWith('text/html')]).toEqual([404, true])
    finding.figures = { requests: tally.requests }
  })
})
