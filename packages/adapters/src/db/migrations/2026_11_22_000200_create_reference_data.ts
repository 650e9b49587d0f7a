import { sql, type Kysely } from 'kysely'

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('subjects')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('title', 'text', (c) => c.notNull().unique())
    .addColumn('group', 'text', (c) =>
      c.notNull().check(sql`"group" in ('ACADEMIC', 'PROFESSIONAL', 'CUSTOM')`),
    )
    .execute()

  await db.schema
    .createTable('subject_levels')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('title', 'text', (c) => c.notNull().unique())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()

  // Which levels a subject is taught at (the level filter of GET /api/v1/subjects).
  await db.schema
    .createTable('subject_subject_levels')
    .addColumn('subject_id', 'integer', (c) => c.notNull().references('subjects.id').onDelete('cascade'))
    .addColumn('subject_level_id', 'integer', (c) =>
      c.notNull().references('subject_levels.id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('subject_subject_levels_pk', ['subject_id', 'subject_level_id'])
    .execute()

  await db.schema
    .createTable('exam_boards')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('title', 'text', (c) => c.notNull().unique())
    .execute()

  await db.schema
    .createTable('languages')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('lesson_locations')
    .addColumn('id', 'smallint', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('cancellation_policies')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('hours_before_start', 'integer', (c) => c.notNull().unique().check(sql`hours_before_start >= 0`))
    .addColumn('refund_percent', 'integer', (c) => c.notNull().check(sql`refund_percent between 0 and 100`))
    .execute()

  // One row: the bounds a tutor's hourly rate must lie within.
  await db.schema
    .createTable('lesson_price_settings')
    .addColumn('id', 'smallint', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('min_hourly_rate_pence', 'integer', (c) => c.notNull().check(sql`min_hourly_rate_pence > 0`))
    .addColumn('max_hourly_rate_pence', 'integer', (c) => c.notNull())
    .addColumn('default_hourly_rate_pence', 'integer', (c) => c.notNull())
    .addCheckConstraint(
      'lesson_price_settings_bounds',
      sql`min_hourly_rate_pence <= default_hourly_rate_pence and default_hourly_rate_pence <= max_hourly_rate_pence`,
    )
    .execute()

  await db.schema
    .createTable('service_notices')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('title', 'text', (c) => c.notNull().unique())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull().check(sql`severity in ('info', 'warning', 'critical')`))
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ends_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()

  await db.schema
    .createTable('user_languages')
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('language_id', 'integer', (c) => c.notNull().references('languages.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_languages_pk', ['user_id', 'language_id'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'user_languages',
    'service_notices',
    'lesson_price_settings',
    'cancellation_policies',
    'lesson_locations',
    'languages',
    'exam_boards',
    'subject_subject_levels',
    'subject_levels',
    'subjects',
  ]) {
    await db.schema.dropTable(table).ifExists().execute()
  }
}
