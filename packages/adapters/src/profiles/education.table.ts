import type { Generated, Selectable } from 'kysely'

export interface EducationTable {
  id: Generated<number>
  user_id: number
  institution: string
  qualification: string
  subject: string | null
  start_year: number
  end_year: number | null
  created_at: Generated<Date>
  updated_at: Generated<Date>
}
export type EducationRow = Selectable<EducationTable>
