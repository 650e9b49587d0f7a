import type { OutboxTable } from './outbox.table'

/** The outbox context's tables, as Kysely sees them; `Database` joins every context's. */
export interface OutboxTables {
  outbox: OutboxTable
}
