import type { Generated, Selectable } from 'kysely'

export interface TeachesTable {
  id: Generated<number>
  tutor_id: number
  subject_id: number
  hourly_rate_pence: number
  enabled: Generated<boolean>
  created_at: Generated<Date>
  updated_at: Generated<Date>
  deleted_at: Date | null
}
export interface TeachSubjectLevelsTable {
  teach_id: number
  subject_level_id: number
}
export interface TeachExamBoardsTable {
  teach_id: number
  exam_board_id: number
}
export type TeachRow = Selectable<TeachesTable>
