import type { ColumnType, Generated, Selectable } from 'kysely'

export interface DayAvailabilitiesTable {
  id: Generated<number>
  tutor_id: number
  /** 0 = Sunday .. 6 = Saturday. */
  day: number
  lesson_types: ColumnType<string[], string[], string[]>
  buffer_minutes: number
  subject_id: number | null
  subject_level_id: number | null
  exam_board_id: number | null
  created_at: Generated<Date>
  updated_at: Generated<Date>
}
/** Wall-clock `time` columns read back as `HH:MM:SS` text. */
export interface DayAvailabilitySlotsTable {
  id: Generated<number>
  day_availability_id: number
  tutor_id: number
  day: number
  starts_at: string
  ends_at: string
}
export type DayAvailabilityRow = Selectable<DayAvailabilitiesTable>
export type DayAvailabilitySlotRow = Selectable<DayAvailabilitySlotsTable>
