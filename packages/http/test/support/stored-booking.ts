import type { TestContext } from './harness'

/**
 * A booking in `state` for a new tutor and student, written straight into the tables as the
 * booking flow would leave it: an online lesson tomorrow, `slot` two-hour steps later, priced
 * £30 + £3 fee. The webhook tests add the payment they need.
 */
export async function storedBooking(t: TestContext, state: number, slot: number) {
  const tutor = await t.register('tutor')
  const student = await t.register('student')
  const subject = await t.db.selectFrom('subjects').select('id').orderBy('id').executeTakeFirstOrThrow()
  const level = await t.db.selectFrom('subject_levels').select('id').orderBy('id').executeTakeFirstOrThrow()
  const teach = await t.db.insertInto('teaches').values({ tutor_id: tutor.user.id, subject_id: subject.id, hourly_rate_pence: 3000, deleted_at: null }).returning('id').executeTakeFirstOrThrow()
  const start = new Date(Date.now() + 86_400_000 + slot * 7_200_000)
  const lesson = await t.db
    .insertInto('lessons')
    .values({ tutor_id: tutor.user.id, student_id: student.user.id, teach_id: teach.id, subject_id: subject.id, subject_level_id: level.id, lesson_type: 3, start_at: start, finish_at: new Date(start.getTime() + 3_600_000) })
    .returning('id')
    .executeTakeFirstOrThrow()
  const booking = await t.db
    .insertInto('bookings')
    .values({ lesson_id: lesson.id, user_id: student.user.id, state, lesson_price_pence: 3000, service_fee_pence: 300, total_pence: 3300, hold_expires_at: null, coupon_uid: null })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { bookingId: booking.id, tutor, student }
}
