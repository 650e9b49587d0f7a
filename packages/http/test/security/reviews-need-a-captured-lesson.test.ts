import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addSearchableTutor, catalogOf, testDatabaseKinds } from '@tutoring/adapters/testing'
import { runDuePayments } from '@tutoring/domain/booking-payments'
import { createTestContext, type TestContext } from '../support/harness'
import { fakeClock } from '@tutoring/testkit'
import { recordFinding, Tally } from '../support/findings'

type One<T> = { data: T }
type Booking = { id: number; state_name: string; lesson: { finish: string } }
type Problem = { code: string }

const HOUR = 3_600_000
const DAY = 24 * HOUR
const REVIEW = { knowledge: 5, communication: 5, punctuality: 5, comment: 'Brilliant.' }

/**
 * Issue 13: a booking paid later (9 days out, the card saved and authorised nearer the time)
 * let its booker review the tutor at once, and the review stayed after the booking was
 * cancelled and refunded. CONTRACT §14: a review needs a finished lesson of the reviewer
 * whose payment was captured.
 */
describe.each(testDatabaseKinds())('reviews need a finished, captured lesson, on %s', (kind) => {
  let t: TestContext
  const base = new Date(Math.ceil(Date.now() / HOUR) * HOUR)
  const clock = fakeClock(base)
  let tutorId = 0
  let teach = { id: 0, levelId: 0 }

  beforeAll(async () => {
    t = await createTestContext(kind, {}, { clock })
    tutorId = await addSearchableTutor(t, await catalogOf(t))
    const row = await t.db.selectFrom('teaches').select('id').where('tutor_id', '=', tutorId).executeTakeFirstOrThrow()
    const level = await t.db.selectFrom('teach_subject_levels').select('subject_level_id').where('teach_id', '=', row.id).executeTakeFirstOrThrow()
    teach = { id: Number(row.id), levelId: level.subject_level_id }
  })
  afterAll(() => t.close())

  /** 10:00 UTC `days` ahead: inside the tutor's 09:00-17:00 London, summer or winter. */
  const hourAhead = (days: number) => {
    const start = new Date(`${new Date(base.getTime() + days * DAY).toISOString().slice(0, 10)}T10:00:00Z`)
    return { start: start.toISOString(), finish: new Date(start.getTime() + HOUR).toISOString() }
  }
  async function paidBooking(token: string, days: number): Promise<Booking> {
    const booked = await t.request<One<Booking>>('POST', '/api/bookings', { token, body: { teach_id: teach.id, subject_level_id: teach.levelId, lesson_type: 3, ...hourAhead(days) } })
    expect(booked.status, booked.text).toBe(201)
    const paid = await t.request<One<{ status: string }>>('POST', '/api/payments/pay', { token, body: { booking_id: booked.body.data.id, payment_method: 'pm_card_visa' } })
    expect(paid.status, paid.text).toBe(200)
    return booked.body.data
  }
  const review = (token: string) => t.request<Problem>('POST', `/api/tutors/${tutorId}/review`, { token, body: REVIEW })
  const reviewsOfTutor = () => t.db.selectFrom('reviews').select('id').where('tutor_id', '=', tutorId).execute()

  it('refuses a review on a booking paid later, 9 days out, and after its refund', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'Integrity: reviews without a captured lesson',
      tried: 'reviewing on a booking 9 days out paid later, then after cancelling it; on a lesson finished but not yet captured',
      held: '422 lesson_not_finished before the finish and the capture, 403 once cancelled; 201 only after both; no review row meanwhile',
    })
    const tally = new Tally()
    const student = await t.register('student')
    const later = await paidBooking(student.token, 9)
    const scheduled = await t.request<One<Booking>>('GET', `/api/bookings/${later.id}`, { token: student.token })
    expect(scheduled.body.data.state_name).toBe('REQUIRES_CAPTURE')

    const early = tally.send(await review(student.token))
    expect([early.status, early.body.code]).toEqual([422, 'lesson_not_finished'])
    const cancelled = await t.request<One<Booking>>('PUT', `/api/bookings/${later.id}/cancel`, { token: student.token })
    expect(cancelled.status, cancelled.text).toBe(200)
    const afterRefund = tally.send(await review(student.token))
    expect(afterRefund.status).toBe(403)
    expect(await reviewsOfTutor()).toEqual([])
    finding.figures = { requests: tally.requests, refused: tally.limitsReached }
  })

  it('takes the review once the lesson has finished and its payment was captured', async ({ task }) => {
    recordFinding(task, {
      class: 'Integrity: reviews without a captured lesson',
      tried: 'reviewing on a booking 9 days out paid later, then after cancelling it; on a lesson finished but not yet captured',
      held: '422 lesson_not_finished before the finish and the capture, 403 once cancelled; 201 only after both; no review row meanwhile',
    })
    const student = await t.register('student')
    const soon = await paidBooking(student.token, 2)
    clock.set(new Date(Date.parse(soon.lesson.finish) + 60_000))
    try {
      const uncaptured = await review(student.token)
      expect([uncaptured.status, uncaptured.body.code]).toEqual([422, 'lesson_not_finished'])
      expect((await runDuePayments(t.services.bookings)).captured).toBe(1)
      const captured = await t.request<One<Booking>>('GET', `/api/bookings/${soon.id}`, { token: student.token })
      expect(captured.body.data.state_name).toBe('PAYED')
      const taken = await review(student.token)
      expect(taken.status).toBe(201)
      expect(await reviewsOfTutor()).toHaveLength(1)
    } finally {
      clock.set(base)
    }
  })
})
