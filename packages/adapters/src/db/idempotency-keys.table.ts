import type { ColumnType, Generated, Selectable } from 'kysely'

export interface IdempotencyKeysTable {
  user_id: number
  key: string
  /** SHA-256 of method, path and body: a repeat with another body is refused. */
  request_hash: string
  response_status: number | null
  response_body: ColumnType<unknown, string | null, string | null>
  created_at: Generated<Date>
  completed_at: Date | null
}
export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>

/** The replay store's table (`Idempotency-Key`), a platform concern of every mutating route. */
export interface IdempotencyTables {
  idempotency_keys: IdempotencyKeysTable
}
