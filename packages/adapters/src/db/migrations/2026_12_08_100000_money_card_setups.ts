import type { Kysely } from 'kysely'

/**
 * A payment of a lesson more than 6 days out whose card setup still needs the customer
 * (3-D Secure) keeps the processor's SetupIntent id, so the bank check's return can ask
 * whether the card was confirmed before the booking counts as paid (CONTRACT §15).
 */
// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payments').addColumn('setup_intent_id', 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payments').dropColumn('setup_intent_id').execute()
}
