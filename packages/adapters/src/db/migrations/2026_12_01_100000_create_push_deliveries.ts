import { sql, type Kysely } from 'kysely'

// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // One row per device an outbox push reached (or found gone): a retry of the push after one
  // device failed skips the devices already served, and a provider's delivery receipt can be
  // matched to the message by `provider_message_id`. `device_id` stays when the device goes.
  await db.schema
    .createTable('push_deliveries')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('outbox_id', 'bigint', (c) => c.notNull().references('outbox.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('device_id', 'bigint', (c) => c.notNull())
    .addColumn('platform', 'text', (c) => c.notNull().check(sql`platform in ('ios', 'android', 'web')`))
    .addColumn('outcome', 'text', (c) => c.notNull().check(sql`outcome in ('sent', 'gone')`))
    .addColumn('provider_message_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('push_deliveries_once', ['outbox_id', 'device_id'])
    .execute()
  await db.schema.createIndex('push_deliveries_provider_message').on('push_deliveries').column('provider_message_id').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('push_deliveries').ifExists().execute()
}
