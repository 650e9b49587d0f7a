import { sql, type Kysely } from 'kysely'

/**
 * A tutor's hours taught, kept rather than summed from every lesson they ever had on each read:
 * `tutor_hours.minutes_taught`, which the booking context's `countHoursTaught` worker keeps
 * current, and `lessons.taught_at`, when a lesson was counted in it (null: not counted). A
 * lesson counts once its finish has passed and it is not cancelled (0); one counted and
 * cancelled afterwards is taken back. The lessons that count today are counted here.
 *
 * The `booked` timeline event's `total` becomes money as everywhere else on the wire
 * (`"33.00"`, CONTRACT §17): the events written before carried pence.
 */
// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tutor_hours')
    .addColumn('tutor_id', 'bigint', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('minutes_taught', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.alterTable('lessons').addColumn('taught_at', 'timestamptz').execute()
  // What the worker claims: lessons to count, and counted ones since cancelled.
  await sql`create index lessons_hours_due on lessons (finish_at) where taught_at is null and state <> 0`.execute(db)
  await sql`create index lessons_hours_withdrawn on lessons (id) where taught_at is not null and state = 0`.execute(db)

  await sql`update lessons set taught_at = finish_at where state <> 0 and finish_at <= now()`.execute(db)
  await sql`
    insert into tutor_hours (tutor_id, minutes_taught)
    select tutor_id, sum(round(extract(epoch from finish_at - start_at) / 60))::int
    from lessons where taught_at is not null group by tutor_id
  `.execute(db)

  await sql`
    update booking_events
    set data = jsonb_set(data, '{total}', to_jsonb(to_char((data ->> 'total')::numeric / 100, 'FM999999990.00')))
    where kind = 'booked' and jsonb_typeof(data -> 'total') = 'number'
  `.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    update booking_events
    set data = jsonb_set(data, '{total}', to_jsonb(round((data ->> 'total')::numeric * 100)::bigint))
    where kind = 'booked' and jsonb_typeof(data -> 'total') = 'string'
  `.execute(db)
  await db.schema.alterTable('lessons').dropColumn('taught_at').execute()
  await db.schema.dropTable('tutor_hours').ifExists().execute()
}
