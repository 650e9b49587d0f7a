import { expect } from 'vitest'
import { addSearchableTutor, catalogOf } from '@tutoring/adapters/testing'
import type { TestContext } from './harness'

type One<T> = { data: T }
type Day = { date: string; times: Array<{ start: string }> }
export type Teach = { id: number; levelId: number }
export type Session = { token: string; user: { id: number } }
export type BookedLesson = { id: number; lesson: { id: number; start: string; finish: string } }

export const HOUR = 3_600_000
export const DAY = 24 * HOUR

/** A tutor anyone may book (verified, subscribed, open 09:00 to 17:00 every day), and their teach. */
export async function bookableTeach(t: TestContext): Promise<Teach> {
  const tutorId = await addSearchableTutor(t, await catalogOf(t))
  const row = await t.db.selectFrom('teaches').select('id').where('tutor_id', '=', tutorId).executeTakeFirstOrThrow()
  const level = await t.db.selectFrom('teach_subject_levels').select('subject_level_id').where('teach_id', '=', row.id).executeTakeFirstOrThrow()
  return { id: row.id, levelId: level.subject_level_id }
}

/** The first free hour availability offers between `fromDays` and `toDays` days ahead. */
export async function freeHour(t: TestContext, teach: Teach, fromDays: number, toDays: number): Promise<{ start: string; finish: string }> {
  const days = (await t.request<One<{ availabilities: Day[] }>>('GET', `/api/availabilites?teach_id=${teach.id}`)).body.data.availabilities
  const [from, to] = [Date.now() + fromDays * DAY, Date.now() + toDays * DAY]
  for (const day of days) {
    for (const time of day.times) {
      const start = new Date(`${day.date}T${time.start}:00Z`)
      if (start.getTime() > from && start.getTime() < to) return { start: start.toISOString(), finish: new Date(start.getTime() + HOUR).toISOString() }
    }
  }
  throw new Error(`no free hour between ${fromDays} and ${toDays} days ahead`)
}

/** Books an hour between `fromDays` and `toDays` days ahead and pays it with `card`. */
export async function paidLesson(
  t: TestContext,
  teach: Teach,
  student: Session,
  days: [number, number],
  card = 'pm_card_visa',
): Promise<{ booking: BookedLesson; pay: { status: string; payment_id: number } }> {
  const booking = await t.request<One<BookedLesson>>('POST', '/api/bookings', {
    token: student.token,
    body: { teach_id: teach.id, subject_level_id: teach.levelId, lesson_type: 3, ...(await freeHour(t, teach, ...days)) },
  })
  expect(booking.status, booking.text).toBe(201)
  const paid = await t.request<One<{ status: string; payment_id: number }>>('POST', '/api/payments/pay', {
    token: student.token,
    body: { booking_id: booking.body.data.id, payment_method: card },
  })
  expect(paid.status, paid.text).toBe(200)
  return { booking: booking.body.data, pay: paid.body.data }
}
