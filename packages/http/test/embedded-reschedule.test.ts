import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addSearchableTutor, catalogOf, testDatabaseKinds } from '@tutoring/adapters/testing'
import { fakeClock } from '@tutoring/testkit'
import { createTestContext, type TestContext } from './support/harness'

type Booking = { id: number; lesson: { id: number; state: number; start: string } }

// Monday 1 June 2026, 11:00 in London; the tutor (addSearchableTutor) teaches 09:00-17:00 every day, 10 miles around the palace.
const NOW = new Date('2026-06-01T10:00:00Z')

/**
 * CONTRACT §17: the embedded database has one connection, and no request may wait on a second
 * while its transaction holds it. Rescheduling a lesson at a student's home booked with a
 * postcode and no coordinates (the normal case) used to geocode the postcode through the
 * database handle inside the transaction, and stalled every request after it.
 */
describe.each(testDatabaseKinds())("rescheduling a lesson at the student's home on %s", (kind) => {
  let t: TestContext
  let teachId = 0
  let levelId = 0
  let tutor: { token: string }

  beforeAll(async () => {
    t = await createTestContext(kind, {}, { clock: fakeClock(NOW) })
    const tutorId = await addSearchableTutor(t, await catalogOf(t))
    const teach = await t.db.selectFrom('teaches').innerJoin('teach_subject_levels', 'teach_subject_levels.teach_id', 'teaches.id').select(['teaches.id', 'teach_subject_levels.subject_level_id']).where('teaches.tutor_id', '=', tutorId).executeTakeFirstOrThrow()
    ;[teachId, levelId] = [teach.id, teach.subject_level_id]
    await t.db.updateTable('users').set({ password_hash: await t.infra.hasher.hash('tutor password 1') }).where('id', '=', tutorId).execute()
    const email = (await t.db.selectFrom('users').select('email').where('id', '=', tutorId).executeTakeFirstOrThrow()).email
    const login = await t.request<{ data: { token: string } }>('POST', '/api/auth/login', { body: { email, password: 'tutor password 1' } })
    tutor = { token: login.body.data.token }
  })
  afterAll(() => t.close())

  /** The answer, or 'stalled' when none came within five seconds. */
  const within = async <T>(work: Promise<T>, ms = 5000): Promise<T | 'stalled'> =>
    Promise.race([work, new Promise<'stalled'>((resolve) => setTimeout(() => resolve('stalled'), ms))])

  const stillAnswering = async () => {
    const started = Date.now()
    const [subjects, ready] = await Promise.all([within(t.request('GET', '/api/subjects'), 1000), within(t.request('GET', '/readyz'), 1000)])
    expect(subjects === 'stalled' ? subjects : subjects.status).toBe(200)
    expect(ready === 'stalled' ? ready : ready.status).toBe(200)
    expect(Date.now() - started).toBeLessThan(1000)
  }

  it('proposes, approves and answers by the emailed link, and the database answers other requests within a second after each', async () => {
    expect(tutor.token).toBeTruthy()
    const student = await t.register('student')
    const hour = (day: number, h: number) => `2026-06-${String(day).padStart(2, '0')}T${String(h).padStart(2, '0')}:00:00Z`
    const booked = await t.request<{ data: Booking }>('POST', '/api/bookings', {
      token: student.token,
      body: { teach_id: teachId, subject_level_id: levelId, lesson_type: 2, start: hour(6, 10), finish: hour(6, 11), address: { line1: '1 Example Street', city: 'London', postcode: 'N1 9GU' } },
    })
    expect(booked.status, booked.text).toBe(201)
    // Written with its point, so no later check locates it again.
    const stored = await t.db.selectFrom('lessons').select(['address']).where('id', '=', booked.body.data.lesson.id).executeTakeFirstOrThrow()
    expect(stored.address).toMatchObject({ postcode: 'N1 9GU', lat: expect.any(Number), lng: expect.any(Number) })
    const paid = await t.request('POST', '/api/payments/pay', { token: student.token, body: { booking_id: booked.body.data.id, payment_method: 'pm_card_visa' } })
    expect(paid.status, paid.text).toBe(200)
    const lessonId = booked.body.data.lesson.id

    const proposed = await within(t.request('PUT', `/api/lessons/${lessonId}/edit`, { token: tutor.token, body: { suggested_start: hour(7, 10), suggested_finish: hour(7, 11) } }))
    expect(proposed === 'stalled' ? proposed : [proposed.status, proposed.text]).toEqual([200, expect.any(String)])
    await stillAnswering()
    const approved = await within(t.request('PUT', `/api/lessons/${lessonId}/approve`, { token: student.token }))
    expect(approved === 'stalled' ? approved : [approved.status, approved.text]).toEqual([200, expect.any(String)])
    await stillAnswering()

    const again = await within(t.request('PUT', `/api/v1/bookings/${booked.body.data.id}/reschedule`, { token: tutor.token, body: { suggested_start: hour(8, 10), suggested_finish: hour(8, 11) } }))
    expect(again === 'stalled' ? again : again.status).toBe(200)
    await stillAnswering()
    const mail = (await t.outbox({ kind: 'email' })).filter((e) => e.topic === 'lesson_reschedule').pop()!
    const accept = new URL((mail.payload as { data: { acceptUrl: string } }).data.acceptUrl)
    const responded = await within(t.request('POST', `${accept.pathname}${accept.search}`))
    expect(responded === 'stalled' ? responded : responded.status).toBeLessThan(400)
    await stillAnswering()
    const after = await t.request<{ data: Booking }>('GET', `/api/bookings/${booked.body.data.id}`, { token: student.token })
    expect(new Date(after.body.data.lesson.start).toISOString()).toBe('2026-06-08T10:00:00.000Z')
  })
})
