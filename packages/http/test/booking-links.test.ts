import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { fakeClock } from '@tutoring/testkit'
import { createTestContext, type TestContext } from './support/harness'

type One<T> = { data: T }
type Session = { token: string; user: { id: number }; email: string }
type Booking = { id: number; state_name: string; lesson: { id: number; state: number } }
type Problem = { status: number; code: string }

const HOUR = 3_600_000

/**
 * CONTRACT §14 "Emailed management links": a booking email's link carries a `secret` that
 * opens that one booking (view, cancel) for its recipient until the lesson's finish.
 */
describe.each(testDatabaseKinds())('emailed booking management links on %s', (kind) => {
  let t: TestContext
  const base = new Date(Math.ceil(Date.now() / HOUR) * HOUR)
  const clock = fakeClock(base)
  let tutor: Session
  let teachId = 0
  let levelId = 0
  let hour = 24 * 3

  beforeAll(async () => {
    t = await createTestContext(kind, {}, { clock })
    tutor = await t.bookableTutor()
    ;({ teachId, levelId } = await t.openOnlineTeach(tutor, '20.00'))
  })
  afterAll(() => t.close())

  const paidLesson = async (student: Session) => {
    hour += 3
    const start = new Date(base.getTime() + hour * HOUR)
    const res = await t.request<One<Booking>>('POST', '/api/bookings', {
      token: student.token,
      body: { teach_id: teachId, subject_level_id: levelId, lesson_type: 3, start: start.toISOString(), finish: new Date(start.getTime() + HOUR).toISOString() },
    })
    expect(res.status, res.text).toBe(201)
    expect((await t.request('POST', '/api/payments/pay', { token: student.token, body: { booking_id: res.body.data.id, payment_method: 'pm_card_visa' } })).status).toBe(200)
    return { ...res.body.data, finish: new Date(start.getTime() + HOUR) }
  }

  /** The management link of the lesson-summary email the student got for a note on this lesson. */
  const emailedLink = async (student: Session, b: Booking) => {
    const note = await t.request<One<{ id: number }>>('POST', '/api/v1/notes', { token: tutor.token, body: { lesson_id: b.lesson.id, text: 'Algebra', summary: 'Good start' } })
    expect(note.status, note.text).toBe(201)
    const email = (await t.outbox({ kind: 'email', topic: 'lesson_summary_note' })).find((e) => (e.payload as { data: { noteId: number } }).data.noteId === note.body.data.id)
    expect(email?.payload).toMatchObject({ to: student.email })
    const url = new URL((email!.payload as { data: { manageUrl: string } }).data.manageUrl)
    expect(`${url.origin}${url.pathname}`).toBe(`http://api.test/api/bookings/${b.id}`)
    return { path: `${url.pathname}${url.search}`, secret: url.searchParams.get('secret')! }
  }

  it('opens the one booking it was sent for, for view and cancel, as its recipient', async () => {
    const student = await t.register('student')
    const mine = await paidLesson(student)
    const other = await paidLesson(student)
    const { path, secret } = await emailedLink(student, mine)

    const seen = await t.request<One<Booking>>('GET', path)
    expect(seen.status, seen.text).toBe(200)
    expect(seen.body.data).toMatchObject({ id: mine.id, state_name: 'REQUIRES_CAPTURE' })

    // Not booking B, not the lesson, not any other route, even of the same user.
    const elsewhere: Array<[string, string, unknown?]> = [
      ['GET', `/api/bookings/${other.id}?secret=${secret}`],
      ['PUT', `/api/bookings/${other.id}/cancel?secret=${secret}`],
      ['GET', `/api/lessons/${mine.lesson.id}?secret=${secret}`],
      ['PUT', `/api/lessons/${mine.lesson.id}/cancel?secret=${secret}`],
      ['PUT', `/api/bookings/${mine.id}?secret=${secret}`, { note: 'hijacked' }],
      ['GET', `/api/bookings/self?secret=${secret}`],
      ['GET', `/api/v1/bookings/${mine.id}?secret=${secret}`],
      ['POST', `/api/subscriptions?secret=${secret}`, {}],
    ]
    for (const [method, url, body] of elsewhere) {
      const res = await t.request<Problem>(method, url, body === undefined ? {} : { body })
      expect([method, url, res.status, res.body?.code]).toEqual([method, url, 401, 'unauthenticated'])
    }
    expect((await t.request<One<Booking>>('GET', `/api/bookings/${other.id}`, { token: student.token })).body.data.state_name).toBe('REQUIRES_CAPTURE')

    // Cancelling through it is the student's cancellation: more than 24 h ahead, a full refund.
    const cancelled = await t.request<One<Booking>>('PUT', `/api/bookings/${mine.id}/cancel?secret=${secret}`)
    expect(cancelled.status, cancelled.text).toBe(200)
    expect(cancelled.body.data.state_name).toBe('REFUNDED')
    const timeline = await t.db.selectFrom('booking_events').select(['kind', 'actor_id']).where('booking_id', '=', mine.id).where('kind', 'like', 'cancelled%').execute()
    expect(timeline).toEqual([{ kind: 'cancelled_by_customer', actor_id: student.user.id }])
  })

  it('expires at the lesson\'s finish, and a tampered secret opens nothing', async () => {
    const student = await t.register('student')
    const b = await paidLesson(student)
    const { path, secret } = await emailedLink(student, b)
    const tampered = path.replace(`secret=${secret}`, `secret=${secret.slice(0, -2)}${secret.at(-2) === 'A' ? 'B' : 'A'}${secret.at(-1)}`)
    expect((await t.request('GET', tampered)).status).toBe(401)
    clock.set(new Date(b.finish.getTime() - 1000))
    expect((await t.request('GET', path)).status).toBe(200)
    clock.set(b.finish)
    expect((await t.request<Problem>('GET', path)).body).toMatchObject({ status: 401, code: 'unauthenticated' })
    expect((await t.request('PUT', `/api/bookings/${b.id}/cancel?secret=${secret}`)).status).toBe(401)
    clock.set(base)
  })

  it('rides on the booked and reschedule emails too, one secret per recipient', async () => {
    const student = await t.register('student')
    const b = await paidLesson(student)
    const start = new Date(base.getTime() + 10 * 24 * HOUR)
    const proposed = await t.request('PUT', `/api/lessons/${b.lesson.id}/edit`, {
      token: tutor.token,
      body: { suggested_start: start.toISOString(), suggested_finish: new Date(start.getTime() + HOUR).toISOString() },
    })
    expect(proposed.status, proposed.text).toBe(200)
    const approved = await t.request('PUT', `/api/lessons/${b.lesson.id}/approve`, { token: student.token })
    expect(approved.status, approved.text).toBe(200)
    const emails = (await t.outbox({ kind: 'email' })).filter((e) => (e.payload as { data: { bookingId?: number } }).data.bookingId === b.id)
    const links = emails.map((e) => {
      const p = e.payload as { to: string; template: string; data: { manageUrl?: string } }
      return { template: p.template, to: p.to, secret: p.data.manageUrl ? new URL(p.data.manageUrl).searchParams.get('secret') : null }
    })
    expect(links.map(({ template, to }) => [template, to]).sort()).toEqual(
      [['lesson_booked', student.email], ['lesson_booked', tutor.email], ['lesson_reschedule', student.email]].sort(),
    )
    for (const link of links) {
      expect(link.secret).toBeTruthy()
      const opened = t.infra.secretBox.open(link.secret!)
      expect(opened).toEqual({ userId: link.to === tutor.email ? tutor.user.id : student.user.id, bookingId: b.id })
    }
    // The booked email's link lasts until the new finish.
    clock.set(new Date(start.getTime() + HOUR - 1000))
    const booked = links.find((l) => l.template === 'lesson_booked' && l.to === student.email)!
    expect((await t.request('GET', `/api/bookings/${b.id}?secret=${booked.secret}`)).status).toBe(200)
    clock.set(base)
  })
})
