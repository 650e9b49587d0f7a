import { sql, type Kysely } from 'kysely'

/**
 * Lesson reminders (CONTRACT §16): one row per reminder sent, keyed by lesson, the start it
 * was for and the offset, so a reminder goes out once however many instances look for due
 * ones (a racing insert waits for the first and finds its row), and a lesson moved to a new
 * start is reminded again there. The index serves the job's scan of the lessons ahead.
 */
// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('lesson_reminders')
    .addColumn('lesson_id', 'bigint', (c) => c.notNull().references('lessons.id').onDelete('cascade'))
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('offset_minutes', 'integer', (c) => c.notNull())
    .addColumn('sent_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('lesson_reminders_pkey', ['lesson_id', 'starts_at', 'offset_minutes'])
    .execute()
  await sql`create index lessons_reminders_ahead on lessons (start_at) where state <> 0`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists lessons_reminders_ahead`.execute(db)
  await db.schema.dropTable('lesson_reminders').execute()
}
