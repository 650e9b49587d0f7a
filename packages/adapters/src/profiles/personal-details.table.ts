import type { Generated, Selectable } from 'kysely'

export interface PersonalDetailsTable {
  id: Generated<number>
  user_id: number
  date_of_birth: string | null
  gender: 'male' | 'female' | null
  created_at: Generated<Date>
  updated_at: Generated<Date>
}
export type PersonalDetailRow = Selectable<PersonalDetailsTable>
