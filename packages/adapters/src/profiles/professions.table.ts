import type { Generated, Selectable } from 'kysely'

export interface ProfessionsTable {
  id: Generated<number>
  user_id: number
  title: string
  organisation: string | null
  start_date: string
  end_date: string | null
  description: string | null
  created_at: Generated<Date>
  updated_at: Generated<Date>
}
export type ProfessionRow = Selectable<ProfessionsTable>
