import type { Generated, Selectable } from 'kysely'

export type SubjectGroup = 'ACADEMIC' | 'PROFESSIONAL' | 'CUSTOM'

export interface CountriesTable {
  id: Generated<number>
  code: string
  name: string
}
export interface SubjectsTable {
  id: Generated<number>
  title: string
  group: SubjectGroup
}
export interface SubjectLevelsTable {
  id: Generated<number>
  title: string
  position: Generated<number>
}
export interface SubjectSubjectLevelsTable {
  subject_id: number
  subject_level_id: number
}
export interface ExamBoardsTable {
  id: Generated<number>
  title: string
}
export interface LanguagesTable {
  id: Generated<number>
  code: string
  name: string
}
export interface UserLanguagesTable {
  user_id: number
  language_id: number
}
export interface LessonLocationsTable {
  id: number
  name: string
  slug: string
  title: string
}
export interface CancellationPoliciesTable {
  id: Generated<number>
  hours_before_start: number
  refund_percent: number
}
export interface LessonPriceSettingsTable {
  id: number
  min_hourly_rate_pence: number
  max_hourly_rate_pence: number
  default_hourly_rate_pence: number
}
export interface ServiceNoticesTable {
  id: Generated<number>
  title: string
  message: string
  severity: 'info' | 'warning' | 'critical'
  starts_at: Date
  ends_at: Date | null
  created_at: Generated<Date>
}
export type SubjectRow = Selectable<SubjectsTable>
export type ServiceNoticeRow = Selectable<ServiceNoticesTable>
