import type { PushDeliveriesTable } from './push-deliveries.table'

/** The notifications context's tables, as Kysely sees them; `Database` joins every context's. */
export interface NotificationsTables {
  push_deliveries: PushDeliveriesTable
}
