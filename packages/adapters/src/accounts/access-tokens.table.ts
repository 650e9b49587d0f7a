import type { Generated, Selectable } from 'kysely'

export interface AccessTokensTable {
  id: Generated<number>
  user_id: number
  token_hash: Uint8Array
  created_at: Generated<Date>
  expires_at: Date
  revoked_at: Date | null
}
export type AccessTokenRow = Selectable<AccessTokensTable>
