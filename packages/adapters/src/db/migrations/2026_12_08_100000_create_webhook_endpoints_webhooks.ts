import { sql, type Kysely } from 'kysely'

/**
 * Outbound webhooks (CONTRACT §16): integrators' endpoints, the events recorded with each
 * change, and one delivery per event and endpoint, which is also the worker's queue (claimed
 * FOR UPDATE SKIP LOCKED by `next_attempt_at`) and the delivery log.
 */
// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('owner_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'jsonb', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('failing_since', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('webhook_endpoints_owner').on('webhook_endpoints').column('owner_id').execute()
  await sql`create index webhook_endpoints_failing on webhook_endpoints (failing_since) where enabled and failing_since is not null`.execute(db)

  await db.schema
    .createTable('integration_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('subject_kind', 'text', (c) => c.notNull().check(sql`subject_kind in ('booking', 'review', 'endpoint')`))
    .addColumn('subject_id', 'bigint', (c) => c.notNull())
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('event_id', 'text', (c) => c.notNull().references('integration_events.id').onDelete('cascade'))
    .addColumn('endpoint_id', 'bigint', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending').check(sql`status in ('pending', 'succeeded', 'failing', 'failed')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('body', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_attempt_at', 'timestamptz')
    .addUniqueConstraint('webhook_deliveries_once', ['event_id', 'endpoint_id'])
    .execute()
  await db.schema.createIndex('webhook_deliveries_log').on('webhook_deliveries').columns(['endpoint_id', 'id']).execute()
  await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where next_attempt_at is not null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').ifExists().execute()
  await db.schema.dropTable('integration_events').ifExists().execute()
  await db.schema.dropTable('webhook_endpoints').ifExists().execute()
}
