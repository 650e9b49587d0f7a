import { sql, type Kysely } from 'kysely'
import { BOOKING_STATES, type LessonReminderRepository, type ReminderCandidate } from '@tutoring/domain/booking'
import { LESSON_STATES } from '@tutoring/domain/lesson'
import type { Database } from '../db/database'

/** The booking events that commit a lesson: paid, authorised, or its card saved for a later authorisation. */
const COMMITTING = ['paid', 'authorized', 'payment_scheduled'] as const

type CandidateRow = {
  lesson_id: number | string
  booking_id: number | string
  start_at: Date
  committed_at: Date
  sent_offsets: number[]
  booker_id: number | string
  booker_zone: string | null
  tutor_id: number | string
  tutor_zone: string | null
}

/**
 * The lessons ahead that a reminder may be due for, and the record of reminders sent. A
 * lesson is committed at its current start from the first committing event of its booking,
 * or from the last approved reschedule when that is later (the lesson moved there then).
 */
export function lessonReminderRepository(db: Kysely<Database>): LessonReminderRepository {
  return {
    async listCandidates(now, horizonMinutes) {
      const horizon = new Date(now.getTime() + horizonMinutes * 60_000)
      const committing = sql.join(COMMITTING.map((kind) => sql`${kind}`))
      const { rows } = await sql<CandidateRow>`
        select l.id as lesson_id, b.id as booking_id, l.start_at, b.user_id as booker_id, l.tutor_id,
          greatest(
            coalesce((select min(e.created_at) from booking_events e where e.booking_id = b.id and e.kind in (${committing})), b.created_at),
            (select max(e.created_at) from booking_events e where e.booking_id = b.id and e.kind = 'reschedule_approved')
          ) as committed_at,
          array(select r.offset_minutes from lesson_reminders r where r.lesson_id = l.id and r.starts_at = l.start_at) as sent_offsets,
          bp.time_zone as booker_zone, tp.time_zone as tutor_zone
        from lessons l
        join bookings b on b.lesson_id = l.id
        left join profiles bp on bp.user_id = b.user_id
        left join profiles tp on tp.user_id = l.tutor_id
        where l.state <> ${LESSON_STATES.CANCELLED} and l.start_at > ${now} and l.start_at <= ${horizon}
          and b.state in (${BOOKING_STATES.PAYED}, ${BOOKING_STATES.REQUIRES_CAPTURE})
        order by l.start_at, l.id
      `.execute(db)
      return rows.map(
        (row): ReminderCandidate => ({
          lessonId: Number(row.lesson_id),
          bookingId: Number(row.booking_id),
          start: new Date(row.start_at),
          committedAt: new Date(row.committed_at),
          sentOffsets: row.sent_offsets.map(Number),
          timeZones: new Map([
            [Number(row.booker_id), row.booker_zone ?? 'Europe/London'],
            [Number(row.tutor_id), row.tutor_zone ?? 'Europe/London'],
          ]),
        }),
      )
    },
    async record(lessonId, start, offsetMinutes, at) {
      const inserted = await db
        .insertInto('lesson_reminders')
        .values({ lesson_id: lessonId, starts_at: start, offset_minutes: offsetMinutes, sent_at: at })
        .onConflict((oc) => oc.columns(['lesson_id', 'starts_at', 'offset_minutes']).doNothing())
        .returning('lesson_id')
        .executeTakeFirst()
      return inserted !== undefined
    },
  }
}
