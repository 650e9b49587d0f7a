import { sql, type Kysely } from 'kysely'

// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('education')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('institution', 'text', (c) => c.notNull())
    .addColumn('qualification', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('start_year', 'smallint', (c) => c.notNull().check(sql`start_year between 1900 and 2100`))
    .addColumn('end_year', 'smallint', (c) => c.check(sql`end_year between 1900 and 2100`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('education_years_ordered', sql`end_year is null or end_year >= start_year`)
    .execute()
  await db.schema.createIndex('education_user').on('education').column('user_id').execute()

  await db.schema
    .createTable('professions')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('organisation', 'text')
    .addColumn('start_date', 'date', (c) => c.notNull())
    .addColumn('end_date', 'date')
    .addColumn('description', 'varchar(1000)')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('professions_dates_ordered', sql`end_date is null or end_date >= start_date`)
    .execute()
  await db.schema.createIndex('professions_user').on('professions').column('user_id').execute()

  // Soft-deleted: lessons will point at children through lesson_child, so ids stay put.
  await db.schema
    .createTable('children')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('parent_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('firstname', 'text', (c) => c.notNull())
    .addColumn('lastname', 'text', (c) => c.notNull())
    .addColumn('date_of_birth', 'date')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .execute()
  await db.schema.createIndex('children_parent').on('children').column('parent_id').execute()

  await db.schema
    .createTable('social_links')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('platform', 'text', (c) =>
      c.notNull().check(sql`platform in ('website', 'linkedin', 'twitter', 'facebook', 'instagram', 'youtube', 'tiktok', 'other')`),
    )
    .addColumn('url', 'text', (c) => c.notNull().check(sql`url like 'https://%'`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('social_links_user').on('social_links').column('user_id').execute()

  // A push token names one app install, so it belongs to one user at a time: whoever
  // registered it last (a shared phone must not push one user's lessons to another).
  await db.schema.createIndex('user_devices_user').on('user_devices').column('user_id').execute()
  await db.schema.createIndex('user_devices_push_token').on('user_devices').column('push_token').unique().execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('user_devices_push_token').ifExists().execute()
  await db.schema.dropIndex('user_devices_user').ifExists().execute()
  for (const table of ['social_links', 'children', 'professions', 'education']) {
    await db.schema.dropTable(table).ifExists().execute()
  }
}
