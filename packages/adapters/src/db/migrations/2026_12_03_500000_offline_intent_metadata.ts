import { sql, type Kysely } from 'kysely'

// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // The offline processor keeps an intent's metadata, as Stripe does, so a payment whose
  // creating call went unanswered can find the intent made for it (metadata.payment_id).
  await db.schema
    .alterTable('offline_payment_intents')
    .addColumn('metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('offline_payment_intents').dropColumn('metadata').execute()
}
