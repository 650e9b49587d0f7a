import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import type { PaymentProcessor } from '@tutoring/domain/payments'
import { createTestContext, type TestContext } from '../support/harness'
import { recordFinding } from '../support/findings'
import { freeHour, type Session, type Teach } from '../support/paid-lessons'

type One<T> = { data: T }
type PayAnswer = { status: string; payment_id: number; booking_state: number }

/**
 * Issue 19 (CONTRACT §15): money holds under concurrency. Each test names the finding of the
 * review it replays; the processor is the offline one, wrapped to count its calls.
 */
describe.each(testDatabaseKinds())('money under concurrency, on %s', (kind) => {
  let t: TestContext
  let teach: Teach
  let tutor: Session
  /** Every processor call, by method name, since the test last cleared it. */
  const calls: string[] = []
  const counted = (offline: PaymentProcessor): PaymentProcessor =>
    new Proxy(offline, {
      get(target, name, receiver) {
        const value: unknown = Reflect.get(target, name, receiver)
        if (typeof value !== 'function') return value
        return (...args: unknown[]) => {
          calls.push(String(name))
          return (value as (...a: unknown[]) => unknown).apply(target, args)
        }
      },
    })

  beforeAll(async () => {
    t = await createTestContext(kind, {}, { processor: counted })
    tutor = await t.bookableTutor()
    const opened = await t.openOnlineTeach(tutor, '30.00')
    teach = { id: opened.teachId, levelId: opened.levelId }
  })
  afterAll(() => t.close())

  const book = async (student: Session, days: [number, number]) => {
    const res = await t.request<One<{ id: number }>>('POST', '/api/bookings', {
      token: student.token,
      body: { teach_id: teach.id, subject_level_id: teach.levelId, lesson_type: 3, ...(await freeHour(t, teach, ...days)) },
    })
    expect(res.status, res.text).toBe(201)
    return res.body.data.id
  }
  const pay = (who: Session, bookingId: number, card: string) =>
    t.request<One<PayAnswer>>('POST', '/api/payments/pay', { token: who.token, body: { booking_id: bookingId, payment_method: card } })

  it('checks who pays and the booking state before any processor call (finding 8)', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'Money: the processor called for someone who may not pay',
      tried: "the tutor paying their student's near and far bookings, the student paying a cancelled far booking",
      held: '403 for the tutor and 409 for the cancelled booking, with no processor call at all',
    })
    const student = await t.register('student')
    const far = await book(student, [10, 14])
    const near = await book(student, [2, 5])
    calls.length = 0
    for (const id of [far, near]) {
      const answer = await pay(tutor, id, 'pm_card_visa')
      expect(answer.status, answer.text).toBe(403)
    }
    // Another student, who can see neither booking, is told there is none.
    const stranger = await t.register('student')
    expect((await pay(stranger, far, 'pm_card_visa')).status).toBe(404)
    expect(calls).toEqual([])

    const cancelled = await t.request('PUT', `/api/bookings/${far}/cancel`, { token: student.token })
    expect(cancelled.status, cancelled.text).toBe(200)
    calls.length = 0
    const late = await pay(student, far, 'pm_card_visa')
    expect(late.status, late.text).toBe(409)
    expect(calls).toEqual([])
    finding.figures = { 'refused pays': 4, 'processor calls': calls.length }
  })
})
