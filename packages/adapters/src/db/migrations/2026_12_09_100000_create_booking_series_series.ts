import { sql, type Kysely } from 'kysely'

/**
 * Weekly series (CONTRACT §16): one row per series booked with `repeat_weeks` > 1, and each
 * week's booking naming its series and its place in it (1 for the first week).
 */
// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('booking_series')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('weeks', 'integer', (c) => c.notNull().check(sql`weeks between 2 and 12`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute()
  await db.schema
    .alterTable('bookings')
    .addColumn('series_id', 'bigint', (c) => c.references('booking_series.id'))
    .addColumn('series_position', 'integer')
    .execute()
  await db.schema.createIndex('bookings_series_id_idx').on('bookings').column('series_id').where('series_id', 'is not', null).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('bookings').dropColumn('series_position').dropColumn('series_id').execute()
  await db.schema.dropTable('booking_series').execute()
}
