import type { Generated } from 'kysely'

/** A tutor's minutes taught, kept by the booking context's `countHoursTaught` (migration 2026_12_07_100000). */
export interface TutorHoursTable {
  tutor_id: number
  minutes_taught: Generated<number>
  updated_at: Generated<Date>
}
