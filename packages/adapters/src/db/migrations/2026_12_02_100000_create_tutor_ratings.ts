import { sql, type Kysely } from 'kysely'

/**
 * `tutor_ratings`: a tutor's review count and overall rating, written by the review use case
 * in the transaction that writes the review (its row is also that write's lock), read by the
 * public profile and by search's `sort=rating`. It replaces `tutor_search.overall_rating`,
 * which nothing ever wrote.
 */
// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tutor_ratings')
    .addColumn('tutor_id', 'bigint', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('review_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('overall_rating', 'double precision')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  // The rule of the domain's overallRating: the mean of each review's mean mark, to two places.
  await sql`
    insert into tutor_ratings (tutor_id, review_count, overall_rating)
    select tutor_id, count(*)::int, round(avg((knowledge + communication + punctuality) / 3.0), 2)::float8
    from reviews group by tutor_id
  `.execute(db)
  await sql`drop index if exists tutor_search_searchable_rating`.execute(db)
  await db.schema.alterTable('tutor_search').dropColumn('overall_rating').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tutor_search').addColumn('overall_rating', 'double precision').execute()
  await sql`create index tutor_search_searchable_rating on tutor_search (overall_rating desc nulls last, tutor_id) where searchable`.execute(db)
  await db.schema.dropTable('tutor_ratings').ifExists().execute()
}
