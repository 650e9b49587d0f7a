import type { Kysely } from 'kysely'

/**
 * A payment retried after its first call went unanswered (or with a 3-D Secure step left
 * unfinished) keeps the id of the intent the retry gave up, so a late answer or event of that
 * intent is never taken for the payment while its cancel is on the way (CONTRACT §15, §17).
 */
// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payments').addColumn('voided_payment_intent_id', 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payments').dropColumn('voided_payment_intent_id').execute()
}
