import type { TeachExamBoardsTable, TeachSubjectLevelsTable, TeachesTable } from './teaches.table'

/** The teaching context's tables, as Kysely sees them; `Database` joins every context's. */
export interface TeachingTables {
  teach_exam_boards: TeachExamBoardsTable
  teach_subject_levels: TeachSubjectLevelsTable
  teaches: TeachesTable
}
