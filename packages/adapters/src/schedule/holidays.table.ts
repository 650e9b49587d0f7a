import type { Generated, Selectable } from 'kysely'

export interface HolidaysTable {
  id: Generated<number>
  tutor_id: number
  /** `YYYY-MM-DD` text (see type-parsers). */
  start_date: string
  end_date: string
  created_at: Generated<Date>
}
export type HolidayRow = Selectable<HolidaysTable>
