import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { countHoursTaught } from '@tutoring/domain/booking'
import { runDuePayments } from '@tutoring/domain/booking-payments'
import { startServer } from '../src/server'
import { fakeClock } from '@tutoring/testkit'
import { createTestContext, type TestContext } from './support/harness'
import { httpCall, type HttpCallOptions } from './support/http-call'

const HOUR = 3_600_000
const DAY = 24 * HOUR

type One<T> = { data: T }
type Booking = {
  id: number
  state_name: string
  lesson: { id: number; state: number; start: string; finish: string }
  receipt: { refunded: string; total: string }
  tutor: { hours_taught: number; overall_rating: number | null; review_count: number }
}

/**
 * A lesson's life through a real listening server: availability, booking, payment,
 * reschedules accepted by emailed link and declined, cancellations early and late, capture
 * after the lesson, a note, a rating and a review, with every email found in the outbox.
 */
describe.each(testDatabaseKinds())('lessons end to end on %s', (kind) => {
  let t: TestContext
  let server: Awaited<ReturnType<typeof startServer>>
  const clock = fakeClock(new Date(Math.ceil(Date.now() / HOUR) * HOUR))

  beforeAll(async () => {
    t = await createTestContext(kind, {}, { clock })
    server = await startServer(t.infra, 0)
  })
  afterAll(async () => {
    await server?.stop()
    await t?.close()
  })

  const call = <T>(method: string, path: string, options: HttpCallOptions = {}) => httpCall<T>(server.url, method, path, options)
  const register = async (role: string, name: string) => {
    const res = await call<One<{ token: string; user: { id: number } }>>('POST', '/api/auth/register', {
      json: { email: `${name}@e2e.example.com`, password: 'a long enough password', firstname: name, lastname: 'E2e', role, country: 'GB' },
    })
    expect(res.status, res.text).toBe(201)
    return { ...res.body.data, email: `${name}@e2e.example.com` }
  }

  it('books, pays, reschedules, cancels, captures, notes, rates and reviews', async () => {
    const tutor = await register('tutor', 'tess')
    // The provider's and staff's checks, as they would leave them: now the tutor may be booked.
    await t.passVerifications(tutor.user.id)
    const student = await register('student', 'sam')
    const subjects = await call<{ data: Array<{ id: number; title: string }> }>('GET', '/api/v1/subjects?per_page=100', { token: tutor.token })
    const maths = subjects.body.data.find((s) => s.title === 'Mathematics')!.id
    const levels = await t.db.selectFrom('subject_levels').select(['id', 'title']).execute()
    const gcse = levels.find((l) => l.title === 'GCSE')!.id
    const teach = await call<One<{ id: number }>>('POST', '/api/v1/teaches', { token: tutor.token, json: { subject_id: maths, subject_level_ids: [gcse], hourly_rate: '30.00' } })
    expect(teach.status, teach.text).toBe(201)
    for (const day of ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY']) {
      const entry = await call('POST', '/api/v1/day-availabilities', { token: tutor.token, json: { day, slots: [{ from: '00:00', to: '24:00' }], lesson_types: ['online'], buffer_minutes: 0 } })
      expect(entry.status, entry.text).toBe(201)
    }

    // Availability offers the slots booking accepts.
    const date = new Date(clock.now().getTime() + 5 * DAY).toISOString().slice(0, 10)
    const offered = await call<{ data: { availabilities: Array<{ date: string; times: Array<{ start: string }> }> } }>(
      'GET',
      `/api/availabilites?teach_id=${teach.body.data.id}&date=${date}&duration=60&lesson_type=3&utc_offset=0`,
      { token: student.token },
    )
    expect(offered.status, offered.text).toBe(200)
    const times = offered.body.data.availabilities[0]!.times.map((x) => x.start)
    expect(times).toContain('10:00')
    const slotAt = (day: string, hhmm: string) => {
      const start = new Date(`${day}T${hhmm}:00Z`)
      return { start: start.toISOString(), finish: new Date(start.getTime() + HOUR).toISOString() }
    }
    const book = async (times: { start: string; finish: string }, key?: string) => {
      const res = await call<One<Booking>>('POST', '/api/bookings', {
        token: student.token,
        headers: key ? { 'idempotency-key': key } : {},
        json: { teach_id: teach.body.data.id, subject_level_id: gcse, lesson_type: 3, ...times },
      })
      expect(res.status, res.text).toBe(201)
      return res.body.data
    }
    const pay = async (bookingId: number) => {
      const res = await call<One<{ status: string }>>('POST', '/api/payments/pay', { token: student.token, json: { booking_id: bookingId, payment_method: 'pm_card_visa' } })
      expect(res.status, res.text).toBe(200)
      return res.body.data
    }

    const first = await book(slotAt(date, '10:00'), 'first-booking')
    const replay = await call<One<Booking>>('POST', '/api/bookings', {
      token: student.token,
      headers: { 'idempotency-key': 'first-booking' },
      json: { teach_id: teach.body.data.id, subject_level_id: gcse, lesson_type: 3, ...slotAt(date, '10:00') },
    })
    expect(replay.body.data.id).toBe(first.id)
    expect((await pay(first.id)).status).toBe('requires_capture')

    // The tutor proposes; the student accepts through the emailed, signed link.
    const moved = slotAt(date, '14:00')
    const proposed = await call('PUT', `/api/lessons/${first.lesson.id}/edit`, { token: tutor.token, json: { suggested_start: moved.start, suggested_finish: moved.finish } })
    expect(proposed.status, proposed.text).toBe(200)
    const reschedule = (await t.outbox({ kind: 'email' })).find((e) => e.topic === 'lesson_reschedule')!
    const links = (reschedule.payload as { to: string; data: { acceptUrl: string } })
    expect(links.to).toBe(student.email)
    const accept = new URL(links.data.acceptUrl)
    const page = await fetch(`${server.url}${accept.pathname}${accept.search}`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('Accept')
    const accepted = await fetch(`${server.url}${accept.pathname}${accept.search}`, { method: 'POST' })
    expect(accepted.status).toBe(200)
    const afterAccept = await call<One<Booking>>('GET', `/api/bookings/${first.id}`, { token: student.token })
    expect(afterAccept.body.data.lesson).toMatchObject({ state: 1, start: moved.start })
    expect(afterAccept.body.data.tutor).toMatchObject({ hours_taught: 0, overall_rating: null })

    // The student proposes on another lesson; the tutor declines: cancelled and refunded in full.
    const second = await book(slotAt(date, '16:00'))
    await pay(second.id)
    const later = slotAt(date, '18:00')
    expect((await call('PUT', `/api/lessons/${second.lesson.id}/edit`, { token: student.token, json: { suggested_start: later.start, suggested_finish: later.finish } })).status).toBe(200)
    const declined = await call<One<{ state: number }>>('PUT', `/api/lessons/${second.lesson.id}/decline`, { token: tutor.token })
    expect(declined.body.data.state).toBe(0)
    expect((await call<One<Booking>>('GET', `/api/bookings/${second.id}`, { token: student.token })).body.data.state_name).toBe('REFUNDED')

    // Cancelled early: a full refund; late: half.
    const third = await book(slotAt(date, '20:00'))
    await pay(third.id)
    const early = await call<One<Booking>>('PUT', `/api/bookings/${third.id}/cancel`, { token: student.token })
    expect(early.body.data).toMatchObject({ state_name: 'REFUNDED', receipt: { refunded: '33.00' } })
    const soon = new Date(clock.now().getTime() + 3 * HOUR)
    const fourth = await book({ start: soon.toISOString(), finish: new Date(soon.getTime() + HOUR).toISOString() })
    await pay(fourth.id)
    const late = await call<One<Booking>>('PUT', `/api/bookings/${fourth.id}/cancel`, { token: student.token })
    expect(late.body.data).toMatchObject({ state_name: 'PARTIAL_REFUNDED', receipt: { refunded: '16.50' } })

    // After the lesson: captured, a note, a rating and a review.
    clock.set(new Date(new Date(moved.finish).getTime() + 5 * 60_000))
    const captured = await runDuePayments(t.services.bookings)
    expect(captured.captured).toBe(1)
    // Hours taught, once the worker counted them: the one lesson that finished and was not cancelled.
    expect(await countHoursTaught(t.services.bookings)).toEqual({ counted: 1, withdrawn: 0 })
    const finished = await call<One<Booking>>('GET', `/api/bookings/${first.id}`, { token: student.token })
    expect(finished.body.data).toMatchObject({ state_name: 'PAYED', tutor: { hours_taught: 1, overall_rating: null } })
    const note = await call<One<{ id: number }>>('POST', '/api/v1/notes', { token: tutor.token, json: { lesson_id: first.lesson.id, text: 'Quadratics, completing the square.', summary: 'Good progress.' } })
    expect(note.status, note.text).toBe(201)
    const rated = await call<One<{ experience_rating: number }>>('PUT', `/api/v1/lessons/${first.lesson.id}`, { token: student.token, json: { experience_rating: 5 } })
    expect(rated.body.data.experience_rating).toBe(5)
    const review = await call('POST', `/api/tutors/${tutor.user.id}/review`, { token: student.token, json: { knowledge: 5, communication: 4, punctuality: 5, comment: 'Clear and patient.' } })
    expect(review.status, review.text).toBe(201)
    const summary = await call<One<{ count: number; overall_rating: number }>>('GET', `/api/tutors/${tutor.user.id}/review`, { token: student.token })
    expect(summary.body.data).toMatchObject({ count: 1, overall_rating: 4.67 })
    expect((await call<One<Booking>>('GET', `/api/bookings/${first.id}`, { token: student.token })).body.data.tutor).toMatchObject({ overall_rating: 4.67, review_count: 1 })

    const emails = await t.outbox({ kind: 'email' })
    const topics = new Set(emails.map((e) => e.topic))
    for (const template of ['lesson_reschedule', 'lesson_booked', 'lesson_cancelled', 'lesson_summary_note']) expect(topics).toContain(template)
    expect((await t.outbox({ kind: 'push' })).length).toBe(1)
    const delivered = await t.infra.deliverOutbox(500)
    expect(delivered.failed).toBe(0)
  })
})
