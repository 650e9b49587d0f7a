import type { Generated, Selectable } from 'kysely'

export interface PasswordResetsTable {
  id: Generated<number>
  user_id: number
  token_hash: Uint8Array
  created_at: Generated<Date>
  used_at: Date | null
}
export type PasswordResetRow = Selectable<PasswordResetsTable>
