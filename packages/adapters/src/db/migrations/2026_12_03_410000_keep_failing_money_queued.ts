import { sql, type Kysely } from 'kysely'

// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // A due authorisation or capture the processor refuses is retried later, with backoff, by
  // itself: the job moves on to the other due rows instead of retrying the earliest forever.
  await db.schema
    .alterTable('payments')
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('retry_at', 'timestamptz')
    .execute()
  // Outbox messages are never given up: `failed_at` now marks when one crossed the failing
  // threshold (staff were told), and such rows stay due. Those given up before are due again.
  await sql`drop index if exists outbox_due`.execute(db)
  await sql`create index outbox_due on outbox (available_at) where delivered_at is null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists outbox_due`.execute(db)
  await sql`create index outbox_due on outbox (available_at) where delivered_at is null and failed_at is null`.execute(db)
  await db.schema.alterTable('payments').dropColumn('retry_at').dropColumn('failed_attempts').execute()
}
