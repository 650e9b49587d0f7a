import { sql, type Kysely } from 'kysely'

/**
 * Search's tables are never scanned by parallel workers. Each search is one of many requests
 * at once, and at 1,000,000 tutors the planner gave the broad online search two workers and a
 * full sort of its 39,000 matches: 110 ms against 40 ms in one process (RESULTS.md), and the
 * workers take the cores the other requests need. PGlite has no parallel workers; the
 * setting is kept there as anywhere.
 */
// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) await sql.raw(`alter table ${table} set (parallel_workers = 0)`).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) await sql.raw(`alter table ${table} reset (parallel_workers)`).execute(db)
}

const TABLES = ['tutor_search', 'tutor_search_online']
