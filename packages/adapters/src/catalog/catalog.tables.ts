import type { CancellationPoliciesTable, CountriesTable, ExamBoardsTable, LanguagesTable, LessonLocationsTable, LessonPriceSettingsTable, ServiceNoticesTable, SubjectLevelsTable, SubjectSubjectLevelsTable, SubjectsTable, UserLanguagesTable } from './reference-data.table'

/** The catalog context's tables, as Kysely sees them; `Database` joins every context's. */
export interface CatalogTables {
  cancellation_policies: CancellationPoliciesTable
  countries: CountriesTable
  exam_boards: ExamBoardsTable
  languages: LanguagesTable
  lesson_locations: LessonLocationsTable
  lesson_price_settings: LessonPriceSettingsTable
  service_notices: ServiceNoticesTable
  subject_levels: SubjectLevelsTable
  subject_subject_levels: SubjectSubjectLevelsTable
  subjects: SubjectsTable
  user_languages: UserLanguagesTable
}
