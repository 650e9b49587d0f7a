import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { runDuePayments } from '@tutoring/domain/booking-payments'
import { createTestContext, type TestContext } from '../support/harness'
import { recordFinding } from '../support/findings'
import { clockAhead } from '@tutoring/testkit'
import { bookableTeach, DAY, freeHour, paidLesson, type Session, type Teach } from '../support/paid-lessons'

type Payment = { id: number; status: string; authorize_at: Date | null; capture_at: Date | null; processor_payment_intent_id: string | null }

/**
 * Issue 13: approving a reschedule never moved the payment's authorisation and capture times,
 * so a lesson moved later was captured before it happened, or after its card hold lapsed.
 */
describe.each(testDatabaseKinds())('a rescheduled lesson moves its payment, on %s', (kind) => {
  let t: TestContext
  let teach: Teach
  let tutor: Session

  beforeAll(async () => {
    t = await createTestContext(kind)
    teach = await bookableTeach(t)
    // The tutor answers proposals, so they log in like anyone else.
    const row = await t.db.selectFrom('teaches').innerJoin('users', 'users.id', 'teaches.tutor_id').select(['users.id', 'users.email']).where('teaches.id', '=', teach.id).executeTakeFirstOrThrow()
    await t.db.updateTable('users').set({ password_hash: await t.infra.hasher.hash('tutor password 1') }).where('id', '=', row.id).execute()
    const login = await t.request<{ data: { token: string } }>('POST', '/api/auth/login', { body: { email: row.email, password: 'tutor password 1' } })
    expect(login.status, login.text).toBe(200)
    tutor = { token: login.body.data.token, user: { id: row.id } }
  })
  afterAll(() => t.close())

  const paymentsOf = (bookingId: number) => t.db.selectFrom('payments').selectAll().where('booking_id', '=', bookingId).orderBy('id').execute() as Promise<Payment[]>
  /** The student proposes an hour between `days` days ahead; the tutor approves it. */
  async function move(student: Session, lessonId: number, days: [number, number]) {
    const times = await freeHour(t, teach, ...days)
    const proposed = await t.request('PUT', `/api/lessons/${lessonId}/edit`, { token: student.token, body: { suggested_start: times.start, suggested_finish: times.finish } })
    expect(proposed.status, proposed.text).toBe(200)
    const approved = await t.request('PUT', `/api/lessons/${lessonId}/approve`, { token: tutor.token })
    expect(approved.status, approved.text).toBe(200)
    return { start: new Date(times.start), finish: new Date(times.finish) }
  }

  it('releases the hold of a lesson moved beyond the authorisation window and authorises it six days before the new start', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'Money: a rescheduled lesson keeps its old payment times',
      tried: 'an authorised lesson moved 8+ days later, a scheduled one moved earlier, an authorised one moved within the window',
      held: "the hold released and a new authorisation scheduled 6 days before the new start; authorise and capture times follow the lesson",
    })
    const student = await t.register('student')
    const { booking } = await paidLesson(t, teach, student, [4, 5])
    const [held] = await paymentsOf(booking.id)
    expect(held).toMatchObject({ status: 'requires_capture', capture_at: new Date(booking.lesson.finish) })

    const moved = await move(student, booking.lesson.id, [12, 14])
    const [released, scheduled] = await paymentsOf(booking.id)
    expect(released).toMatchObject({ id: held!.id, capture_at: null })
    expect(scheduled).toMatchObject({ status: 'scheduled', authorize_at: new Date(moved.start.getTime() - 6 * DAY), capture_at: null })
    const cancels = (await t.outbox({ kind: 'processor_sync', topic: 'payment.cancel' })).filter((m) => (m.payload as { data: { paymentId: number } }).data.paymentId === held!.id)
    expect(cancels).toHaveLength(1)
    await t.infra.deliverOutbox()
    expect((await paymentsOf(booking.id))[0]).toMatchObject({ status: 'canceled' })
    expect((await t.infra.processor.retrievePaymentIntent(held!.processor_payment_intent_id!)).status).toBe('canceled')

    // Six days before the new start the new authorisation runs and is captured after the new finish.
    await runDuePayments({ ...t.services.bookings, clock: clockAhead(scheduled!.authorize_at!.getTime() - Date.now() + 1_000) })
    expect((await paymentsOf(booking.id))[1]).toMatchObject({ status: 'requires_capture', capture_at: moved.finish })
    const detail = await t.request<{ data: { state_name: string } }>('GET', `/api/bookings/${booking.id}`, { token: student.token })
    expect(detail.body.data.state_name).toBe('REQUIRES_CAPTURE')
    finding.figures = { 'lessons moved': 1 }
  })

  it('authorises a scheduled payment six days before its earlier new start, and captures a held one after its new finish', async ({ task }) => {
    recordFinding(task, {
      class: 'Money: a rescheduled lesson keeps its old payment times',
      tried: 'an authorised lesson moved 8+ days later, a scheduled one moved earlier, an authorised one moved within the window',
      held: "the hold released and a new authorisation scheduled 6 days before the new start; authorise and capture times follow the lesson",
      figures: { 'lessons moved': 2 },
    })
    const student = await t.register('student')
    const far = await paidLesson(t, teach, student, [10, 14])
    expect(far.pay.status).toBe('scheduled')
    const earlier = await move(student, far.booking.lesson.id, [4, 6])
    const [scheduled] = await paymentsOf(far.booking.id)
    expect(scheduled).toMatchObject({ status: 'scheduled', authorize_at: new Date(earlier.start.getTime() - 6 * DAY) })
    // Already inside the window: the next run authorises it, to be captured after the new finish.
    const report = await runDuePayments(t.services.bookings)
    expect(report.authorized).toBeGreaterThanOrEqual(1)
    expect((await paymentsOf(far.booking.id))[0]).toMatchObject({ status: 'requires_capture', capture_at: earlier.finish })

    const nearStudent = await t.register('student')
    const near = await paidLesson(t, teach, nearStudent, [4, 5])
    const within = await move(nearStudent, near.booking.lesson.id, [5, 6])
    const kept = await paymentsOf(near.booking.id)
    expect(kept).toHaveLength(1)
    expect(kept[0]).toMatchObject({ status: 'requires_capture', capture_at: within.finish })
  })
})
