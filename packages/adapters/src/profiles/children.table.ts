import type { Generated, Selectable } from 'kysely'

export interface ChildrenTable {
  id: Generated<number>
  parent_id: number
  firstname: string
  lastname: string
  date_of_birth: string | null
  created_at: Generated<Date>
  updated_at: Generated<Date>
  deleted_at: Date | null
}
export type ChildRow = Selectable<ChildrenTable>
