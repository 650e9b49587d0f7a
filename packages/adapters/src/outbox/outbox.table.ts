import type { ColumnType, Generated, Selectable } from 'kysely'

export type OutboxKind = 'email' | 'push' | 'processor_sync'

export interface OutboxTable {
  id: Generated<number>
  kind: OutboxKind
  topic: string
  payload: ColumnType<unknown, string, string>
  dedupe_key: string | null
  created_at: Generated<Date>
  /** Due from: a writer states it by the service's clock, which `claimDue` reads (not the column's default, the database's `now()`). */
  available_at: Date
  attempts: Generated<number>
  last_error: string | null
  delivered_at: Date | null
  failed_at: Date | null
}
export type OutboxRow = Selectable<OutboxTable>
