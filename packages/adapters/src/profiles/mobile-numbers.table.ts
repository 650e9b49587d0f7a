import type { Generated, Selectable } from 'kysely'

export interface MobileNumbersTable {
  id: Generated<number>
  user_id: number
  number: string
  created_at: Generated<Date>
  updated_at: Generated<Date>
}
export type MobileNumberRow = Selectable<MobileNumbersTable>
