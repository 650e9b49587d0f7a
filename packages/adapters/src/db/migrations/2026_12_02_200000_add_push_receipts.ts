import type { Kysely } from 'kysely'

// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // The latest delivery receipt the push provider reported for a message a device was sent
  // (POST /api/v1/remote-push-notification), matched by the provider's message id.
  await db.schema
    .alterTable('push_deliveries')
    .addColumn('receipt_status', 'text')
    .addColumn('receipt_at', 'timestamptz')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('push_deliveries').dropColumn('receipt_at').dropColumn('receipt_status').execute()
}
