import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { expireReschedules } from '@tutoring/domain/booking'
import { runDuePayments } from '@tutoring/domain/booking-payments'
import { fakeClock } from '@tutoring/testkit'
import { createTestContext, type TestContext } from './support/harness'

type Problem = { code: string; errors?: Record<string, string[]> }
type One<T> = { data: T }
type Session = { token: string; user: { id: number }; email: string }
type Booking = { id: number; state_name: string; lesson: { id: number; state: number; start: string; finish: string } }

const HOUR = 3_600_000

describe.each(testDatabaseKinds())('lessons, notes and reviews on %s', (kind) => {
  let t: TestContext
  const base = new Date(Math.ceil(Date.now() / HOUR) * HOUR)
  const clock = fakeClock(base)
  let tutor: Session
  let teachId = 0
  let levelId = 0
  let hour = 24 * 4

  beforeAll(async () => {
    t = await createTestContext(kind, {}, { clock })
    tutor = await t.bookableTutor()
    ;({ teachId, levelId } = await t.openOnlineTeach(tutor, '20.00'))
  })
  afterAll(() => t.close())

  const londonHour = (at: Date) => Number(new Intl.DateTimeFormat('en-GB', { hour: '2-digit', hourCycle: 'h23', timeZone: 'Europe/London' }).format(at))
  const slot = () => {
    do hour += 2
    while (londonHour(new Date(base.getTime() + hour * HOUR)) === 23)
    const start = new Date(base.getTime() + hour * HOUR)
    return { start: start.toISOString(), finish: new Date(start.getTime() + HOUR).toISOString() }
  }
  const paidLesson = async (student: Session, times = slot()) => {
    const res = await t.request<One<Booking>>('POST', '/api/bookings', { token: student.token, body: { teach_id: teachId, subject_level_id: levelId, lesson_type: 3, ...times } })
    expect(res.status, res.text).toBe(201)
    const paid = await t.request('POST', '/api/payments/pay', { token: student.token, body: { booking_id: res.body.data.id, payment_method: 'pm_card_visa' } })
    expect(paid.status, paid.text).toBe(200)
    return res.body.data
  }

  it('shows a lesson to its parties and staff only; a booking\'s secret does not open its lesson', async () => {
    const student = await t.register('student')
    const b = await paidLesson(student)
    const path = `/api/lessons/${b.lesson.id}`
    expect((await t.request('GET', path, { token: student.token })).status).toBe(200)
    expect((await t.request('GET', path, { token: tutor.token })).status).toBe(200)
    expect((await t.request('GET', path, { token: (await t.internalUser()).token })).status).toBe(200)
    expect((await t.request('GET', path, { token: (await t.register('student')).token })).status).toBe(404)
    expect((await t.request('GET', path)).status).toBe(401)
    const secret = t.infra.secretBox.seal({ userId: tutor.user.id, bookingId: b.id }, new Date(clock.now().getTime() + HOUR))
    expect((await t.request('GET', `${path}?secret=${secret}`)).status).toBe(401)
    expect((await t.request('GET', `/api/v1/lessons/${b.lesson.id}`, { token: student.token })).status).toBe(200)
  })

  it('lets only the other party answer a proposal, 409 outside RESCHEDULE, and expires a lapsed one with a full refund', async () => {
    const student = await t.register('student')
    const b = await paidLesson(student)
    const idle = await t.request<Problem>('PUT', `/api/lessons/${b.lesson.id}/approve`, { token: tutor.token })
    expect([idle.status, idle.body.code]).toEqual([409, 'invalid_state_transition'])
    const staff = await t.internalUser()
    expect((await t.request('PUT', `/api/lessons/${b.lesson.id}/edit`, { token: staff.token, body: { suggested_start: slot().start, suggested_finish: slot().finish } })).status).toBe(403)
    const times = slot()
    expect((await t.request('PUT', `/api/lessons/${b.lesson.id}/edit`, { token: student.token, body: { suggested_start: times.start, suggested_finish: times.finish } })).status).toBe(200)
    expect((await t.request('PUT', `/api/lessons/${b.lesson.id}/approve`, { token: student.token })).status).toBe(403)
    expect((await t.request('PUT', `/api/lessons/${b.lesson.id}/decline`, { token: staff.token })).status).toBe(403)
    const mail = (await t.outbox({ kind: 'email' })).filter((e) => e.topic === 'lesson_reschedule').pop()!
    const decline = new URL((mail.payload as { data: { declineUrl: string } }).data.declineUrl)
    const forged = `${decline.pathname}${decline.search}`.replace(`uid=${tutor.user.id}`, `uid=${student.user.id}`)
    expect((await t.request('POST', forged)).status).toBe(401)

    clock.advance(49 * HOUR)
    const { expired } = await expireReschedules(t.services.bookings)
    clock.set(base)
    expect(expired).toBe(1)
    const after = await t.request<One<Booking>>('GET', `/api/bookings/${b.id}`, { token: student.token })
    expect(after.body.data).toMatchObject({ state_name: 'REFUNDED', lesson: { state: 0 } })
  })

  it('refuses a proposal of another length than the lesson (422 on suggested_finish, both families) and leaves the lesson as it was', async () => {
    const student = await t.register('student')
    const b = await paidLesson(student)
    const times = slot()
    const longer = new Date(new Date(times.start).getTime() + 12 * HOUR).toISOString()
    for (const path of [`/api/lessons/${b.lesson.id}/edit`, `/api/v1/bookings/${b.id}/reschedule`]) {
      const res = await t.request<Problem>('PUT', path, { token: tutor.token, body: { suggested_start: times.start, suggested_finish: longer } })
      expect([res.status, res.body.code], res.text).toEqual([422, 'validation_failed'])
      expect(Object.keys(res.body.errors ?? {})).toEqual(['suggested_finish'])
      expect(res.body.errors?.suggested_finish?.[0]).toContain('60 minutes')
    }
    const after = await t.request<One<Booking>>('GET', `/api/bookings/${b.id}`, { token: student.token })
    expect(after.body.data.lesson).toMatchObject({ state: b.lesson.state, start: b.lesson.start, finish: b.lesson.finish })
    const same = await t.request('PUT', `/api/lessons/${b.lesson.id}/edit`, { token: tutor.token, body: { suggested_start: times.start, suggested_finish: times.finish } })
    expect(same.status, same.text).toBe(200)
  })

  it("keeps one calendar event per lesson: the same UID, SEQUENCE raised by each reschedule and the cancellation, DTSTAMP of the change", async () => {
    type Calendar = { data: { calendar_events: Array<{ uid: string; sequence: number; status: string; ics: string }>; timeline: Array<{ kind: string; at: string }> } }
    const student = await t.register('student')
    const b = await paidLesson(student)
    const detail = async () => (await t.request<Calendar>('GET', `/api/bookings/${b.id}`, { token: student.token })).body.data
    const icsTime = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '')
    const field = (ics: string, name: string) => ics.split('\r\n').find((line) => line.startsWith(`${name}:`))?.slice(name.length + 1)

    const first = await detail()
    const [booked] = first.calendar_events
    expect(booked).toMatchObject({ uid: `lesson-${b.lesson.id}@tutoring`, sequence: 0, status: 'CONFIRMED' })
    expect(field(booked!.ics, 'UID')).toBe(booked!.uid)
    expect(field(booked!.ics, 'SEQUENCE')).toBe('0')
    expect(field(booked!.ics, 'DTSTART')).toBe(icsTime(b.lesson.start))

    for (let i = 1; i <= 2; i++) {
      const times = slot()
      expect((await t.request('PUT', `/api/lessons/${b.lesson.id}/edit`, { token: student.token, body: { suggested_start: times.start, suggested_finish: times.finish } })).status).toBe(200)
      expect((await t.request('PUT', `/api/lessons/${b.lesson.id}/approve`, { token: tutor.token })).status).toBe(200)
      const moved = await detail()
      const approved = moved.timeline.filter((e) => e.kind === 'reschedule_approved').at(-1)!
      const [event] = moved.calendar_events
      expect(event).toMatchObject({ uid: booked!.uid, sequence: i, status: 'CONFIRMED' })
      expect(field(event!.ics, 'SEQUENCE')).toBe(String(i))
      expect(field(event!.ics, 'DTSTART')).toBe(icsTime(times.start))
      expect(field(event!.ics, 'DTSTAMP')).toBe(icsTime(approved.at))
    }

    expect((await t.request('PUT', `/api/bookings/${b.id}/cancel`, { token: student.token })).status).toBe(200)
    const cancelled = await detail()
    const [gone] = cancelled.calendar_events
    expect(gone).toMatchObject({ uid: booked!.uid, sequence: 3, status: 'CANCELLED' })
    expect(field(gone!.ics, 'STATUS')).toBe('CANCELLED')
    expect(field(gone!.ics, 'DTSTAMP')).toBe(icsTime(cancelled.timeline.at(-1)!.at))
    // RFC 5545 §3.1: CRLF line ends, no line longer than 75 octets.
    expect(gone!.ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
    expect(Math.max(...gone!.ics.split('\r\n').map((line) => Buffer.byteLength(line)))).toBeLessThanOrEqual(75)
  })

  it('lets the tutor write notes the student is told of, and nobody else change them', async () => {
    const student = await t.register('student')
    const other = await t.register('student')
    const b = await paidLesson(student)
    const byStudent = await t.request('POST', '/api/v1/notes', { token: student.token, body: { lesson_id: b.lesson.id, text: 'x', summary: 'y' } })
    expect(byStudent.status).toBe(403)
    const hidden = await t.request<Problem>('POST', '/api/v1/notes', { token: tutor.token, body: { lesson_id: 999_999, text: 'x', summary: 'y' } })
    expect(hidden.status).toBe(422)
    const foreignFile = await t.request<Problem>('POST', '/api/v1/notes', { token: tutor.token, body: { lesson_id: b.lesson.id, text: 'x', summary: 'y', file_ids: ['3f1c6a2e-1111-4222-8333-444455556666'] } })
    expect(foreignFile.body.errors).toHaveProperty(['file_ids.0'])
    const note = await t.request<One<{ id: number; text: string }>>('POST', '/api/v1/notes', { token: tutor.token, body: { lesson_id: b.lesson.id, text: 'Fractions', summary: 'Solid' } })
    expect(note.status, note.text).toBe(201)
    const id = note.body.data.id
    expect((await t.request('GET', `/api/v1/notes/${id}`, { token: student.token })).status).toBe(200)
    expect((await t.request('GET', `/api/v1/notes/${id}`, { token: other.token })).status).toBe(404)
    expect((await t.request('PUT', `/api/v1/notes/${id}`, { token: student.token, body: { text: 'changed' } })).status).toBe(403)
    const changed = await t.request<One<{ text: string }>>('PUT', `/api/v1/notes/${id}`, { token: tutor.token, body: { text: 'Fractions and decimals' } })
    expect(changed.body.data.text).toBe('Fractions and decimals')
    const list = await t.request<{ data: Array<{ id: number }> }>('GET', '/api/v1/notes', { token: student.token })
    expect(list.body.data.map((n) => n.id)).toEqual([id])
    expect((await t.request<{ data: unknown[] }>('GET', '/api/v1/notes', { token: other.token })).body.data).toEqual([])
    const email = (await t.outbox({ kind: 'email' })).find((e) => e.topic === 'lesson_summary_note' && (e.payload as { to: string }).to === student.email)
    expect(email).toBeDefined()
    const push = (await t.outbox({ kind: 'push' })).find((e) => (e.payload as { userId: number }).userId === student.user.id)
    expect(push).toBeDefined()
    expect((await t.request('DELETE', `/api/v1/notes/${id}`, { token: tutor.token })).status).toBe(204)
    expect((await t.request('GET', `/api/v1/notes/${id}`, { token: tutor.token })).status).toBe(404)
  })

  it('takes reviews from people who had a lesson, once, and serves the summary cached until the end of the London day', async () => {
    const first = await t.register('student')
    const second = await t.register('student')
    const stranger = await t.register('student')
    await paidLesson(first)
    const last = await paidLesson(second)
    const reviewUrl = `/api/tutors/${tutor.user.id}/review`
    const body = { knowledge: 5, communication: 4, punctuality: 3, comment: 'Helpful' }
    // Not before the lesson has finished and its payment was captured (CONTRACT §14).
    const early = await t.request<Problem>('POST', reviewUrl, { token: first.token, body })
    expect([early.status, early.body.code]).toEqual([422, 'lesson_not_finished'])
    const after = new Date(Date.parse(last.lesson.finish) + HOUR)
    clock.set(after)
    expect((await runDuePayments(t.services.bookings)).captured).toBeGreaterThanOrEqual(2)
    expect((await t.request('POST', reviewUrl, { token: stranger.token, body })).status).toBe(403)
    expect((await t.request('POST', reviewUrl, { token: first.token, body: { ...body, knowledge: 6 } })).status).toBe(422)
    expect((await t.request('POST', reviewUrl, { token: first.token, body: { ...body, comment: 'x'.repeat(301) } })).status).toBe(422)
    expect((await t.request('POST', reviewUrl, { token: first.token, body })).status).toBe(201)
    expect((await t.request('POST', reviewUrl, { token: first.token, body })).status).toBe(422)
    const summary = await t.request<One<{ count: number; overall_rating: number; cached_until: string }>>('GET', reviewUrl, { token: stranger.token })
    expect(summary.body.data).toMatchObject({ count: 1, overall_rating: 4 })
    expect(summary.headers.get('cache-control')).toMatch(/max-age=\d+/)
    expect((await t.request('POST', reviewUrl, { token: second.token, body: { ...body, knowledge: 1 } })).status).toBe(201)
    expect((await t.request<One<{ count: number }>>('GET', reviewUrl, { token: stranger.token })).body.data.count).toBe(1)
    clock.set(new Date(summary.body.data.cached_until))
    const tomorrow = await t.request<One<{ count: number }>>('GET', reviewUrl, { token: stranger.token })
    clock.set(base)
    expect(tomorrow.body.data.count).toBe(2)
    expect((await t.request('GET', `/api/tutors/${first.user.id}/review`, { token: stranger.token })).status).toBe(404)
    expect((await t.request('GET', reviewUrl)).status).toBe(401)
  })

  it('documents every booking, lesson, payment, coupon, note and review route in /openapi.json', async () => {
    const doc = await t.request<{ paths: Record<string, Record<string, unknown>> }>('GET', '/openapi.json')
    for (const [path, method] of [
      ['/api/bookings', 'post'], ['/api/bookings', 'get'], ['/api/bookings/self', 'get'], ['/api/bookings/{id}', 'get'], ['/api/bookings/{id}', 'put'],
      ['/api/bookings/{id}/cancel', 'put'], ['/api/v1/bookings/{id}', 'delete'], ['/api/v1/bookings/{id}/reschedule', 'put'], ['/api/v1/bookings/{id}/approve', 'put'],
      ['/api/lessons/{id}', 'get'], ['/api/lessons/{id}/edit', 'put'], ['/api/lessons/{id}/approve', 'put'], ['/api/lessons/{id}/decline', 'put'], ['/api/lessons/{id}/cancel', 'put'],
      ['/api/lessons/{id}/respond', 'get'], ['/api/lessons/{id}/respond', 'post'], ['/api/v1/lessons', 'get'], ['/api/v1/lessons', 'post'], ['/api/v1/lessons/{id}', 'put'], ['/api/v1/lessons/{id}', 'delete'],
      ['/api/payments/pay', 'post'], ['/api/payments/{id}/status', 'get'], ['/api/coupons', 'get'], ['/api/coupons/{uid}/validate', 'get'],
      ['/api/v1/notes', 'post'], ['/api/v1/notes/{id}', 'put'], ['/api/tutors/{id}/review', 'get'], ['/api/tutors/{id}/review', 'post'],
    ] as const) {
      expect(doc.body.paths[path]?.[method], `${method} ${path}`).toBeDefined()
    }
  })
})
