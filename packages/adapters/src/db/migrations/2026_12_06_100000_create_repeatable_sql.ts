import { sql, type Kysely } from 'kysely'

/**
 * `repeatable_sql`: which version (checksum) of each context's live SQL file (`<context>/sql/*.sql`)
 * the database holds. After the versioned migrations, `migrateToLatest` applies every file
 * whose checksum differs from the one recorded here (db/migrate.ts).
 */
// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('repeatable_sql')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('checksum', 'text', (c) => c.notNull())
    .addColumn('applied_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('repeatable_sql').ifExists().execute()
}
