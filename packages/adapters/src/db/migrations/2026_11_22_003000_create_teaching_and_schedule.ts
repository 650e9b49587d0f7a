import { sql, type Kysely } from 'kysely'

// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // A subject a tutor teaches. Soft-deleted, because bookings will point at teaches.
  await db.schema
    .createTable('teaches')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('tutor_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('subject_id', 'integer', (c) => c.notNull().references('subjects.id'))
    .addColumn('hourly_rate_pence', 'integer', (c) => c.notNull().check(sql`hourly_rate_pence > 0`))
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .execute()
  // One live teach per tutor and subject; its levels and boards say the rest.
  await sql`create unique index teaches_tutor_subject_live on teaches (tutor_id, subject_id) where deleted_at is null`.execute(db)
  await sql`create index teaches_subject_available on teaches (subject_id) where enabled and deleted_at is null`.execute(db)

  await db.schema
    .createTable('teach_subject_levels')
    .addColumn('teach_id', 'bigint', (c) => c.notNull().references('teaches.id').onDelete('cascade'))
    .addColumn('subject_level_id', 'integer', (c) => c.notNull().references('subject_levels.id'))
    .addPrimaryKeyConstraint('teach_subject_levels_pk', ['teach_id', 'subject_level_id'])
    .execute()
  await db.schema.createIndex('teach_subject_levels_level').on('teach_subject_levels').column('subject_level_id').execute()

  await db.schema
    .createTable('teach_exam_boards')
    .addColumn('teach_id', 'bigint', (c) => c.notNull().references('teaches.id').onDelete('cascade'))
    .addColumn('exam_board_id', 'integer', (c) => c.notNull().references('exam_boards.id'))
    .addPrimaryKeyConstraint('teach_exam_boards_pk', ['teach_id', 'exam_board_id'])
    .execute()
  await db.schema.createIndex('teach_exam_boards_board').on('teach_exam_boards').column('exam_board_id').execute()

  // A weekly schedule entry. `day` is 0 (Sunday) .. 6 (Saturday): the generic weekday the
  // schedule repeats on. Times are wall-clock in the tutor's zone (profiles.time_zone).
  await db.schema
    .createTable('day_availabilities')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('tutor_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'smallint', (c) => c.notNull().check(sql`day between 0 and 6`))
    .addColumn('lesson_types', sql`text[]`, (c) =>
      c
        .notNull()
        .check(sql`cardinality(lesson_types) >= 1 and lesson_types <@ array['tutors_home', 'students_home', 'online']::text[]`),
    )
    .addColumn('buffer_minutes', 'smallint', (c) =>
      c.notNull().defaultTo(0).check(sql`buffer_minutes between 0 and 120 and buffer_minutes % 5 = 0`),
    )
    .addColumn('subject_id', 'integer', (c) => c.references('subjects.id'))
    .addColumn('subject_level_id', 'integer', (c) => c.references('subject_levels.id'))
    .addColumn('exam_board_id', 'integer', (c) => c.references('exam_boards.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('day_availabilities_tutor_day').on('day_availabilities').columns(['tutor_id', 'day']).execute()

  // The windows of an entry; tutor and day are repeated so "who is free on a Monday at
  // 10:00" is one indexed read for search.
  await db.schema
    .createTable('day_availability_slots')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('day_availability_id', 'bigint', (c) => c.notNull().references('day_availabilities.id').onDelete('cascade'))
    .addColumn('tutor_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'smallint', (c) => c.notNull().check(sql`day between 0 and 6`))
    .addColumn('starts_at', 'time', (c) => c.notNull())
    .addColumn('ends_at', 'time', (c) => c.notNull())
    .addCheckConstraint('day_availability_slots_order', sql`starts_at < ends_at`)
    .execute()
  await db.schema
    .createIndex('day_availability_slots_tutor_day')
    .on('day_availability_slots')
    .columns(['tutor_id', 'day', 'starts_at'])
    .execute()
  await db.schema.createIndex('day_availability_slots_entry').on('day_availability_slots').column('day_availability_id').execute()

  // A tutor's base for in-person lessons: one per tutor (a new one replaces the old).
  await db.schema
    .createTable('locations')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('tutor_id', 'bigint', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
    .addColumn('postcode', 'text', (c) => c.notNull())
    .addColumn('outcode', 'text', (c) => c.notNull())
    .addColumn('lat', 'double precision', (c) => c.notNull().check(sql`lat between -90 and 90`))
    .addColumn('lng', 'double precision', (c) => c.notNull().check(sql`lng between -180 and 180`))
    .addColumn('travel_distance_miles', 'double precision', (c) =>
      c.notNull().check(sql`travel_distance_miles >= 0 and travel_distance_miles <= 100`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  // A plain box index for "near here"; search may add an earthdistance index beside it.
  await db.schema.createIndex('locations_lat_lng').on('locations').columns(['lat', 'lng']).execute()

  // Inclusive dates in the tutor's time zone.
  await db.schema
    .createTable('holidays')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('tutor_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('start_date', 'date', (c) => c.notNull())
    .addColumn('end_date', 'date', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('holidays_order', sql`start_date <= end_date`)
    .execute()
  await db.schema.createIndex('holidays_tutor_dates').on('holidays').columns(['tutor_id', 'end_date', 'start_date']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'holidays',
    'locations',
    'day_availability_slots',
    'day_availabilities',
    'teach_exam_boards',
    'teach_subject_levels',
    'teaches',
  ]) {
    await db.schema.dropTable(table).ifExists().execute()
  }
}
