import { sql, type Kysely } from 'kysely'

/**
 * Search at 1,000,000 tutors without a probe per match (RESULTS.md, "Issue 20: online search
 * at a million"):
 * - `away`: each tutor's holidays as one datemultirange (null without any), on `tutor_search`
 *   and copied into both search tables' indexes, so rule 5 is a test of the index tuple instead
 *   of a probe of `holidays` per match. Kept by search/sql/holidays.sql and the row triggers.
 * - `tutor_search_online_offer` replaces the primary key: ordered as `sort=rating` orders, so
 *   that page reads its 15 rows in index order and stops; the count scans its prefix as before.
 * - `tutor_search_online_near`: a GiST index of each row's public point, shifted 1000 degrees of
 *   longitude per subject and of latitude per weekday (every (subject, weekday) apart), for
 *   `sort=distance`: the nearest rows bound the page's band, then a box finds every row within it.
 * - `tutor_search_online_unplaced`: the rows without a point, which a distance page lists last.
 */
// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['tutor_search', 'tutor_search_online', 'tutor_search_in_person']) {
    await sql.raw(`alter table ${table} add column away datemultirange`).execute(db)
  }
  // The row triggers of this moment do not copy `away` (their conditions do not name it), so
  // each table is filled here; search/sql/*.sql keeps them from now on.
  await sql`
    update tutor_search ts set away = h.away
    from (select tutor_id, range_agg(daterange(start_date, end_date, '[]')) as away from holidays group by tutor_id) h
    where h.tutor_id = ts.tutor_id
  `.execute(db)
  for (const table of ['tutor_search_online', 'tutor_search_in_person']) {
    await sql.raw(`update ${table} r set away = ts.away from tutor_search ts where ts.tutor_id = r.tutor_id and ts.away is not null`).execute(db)
  }

  await sql`alter table tutor_search_online drop constraint tutor_search_online_pkey`.execute(db)
  await sql`
    create index tutor_search_online_offer on tutor_search_online
      (subject_id, weekday, overall_rating desc nulls last, review_count desc, tutor_id)
      include (lat, lng, tutoring_experience_months, away)
  `.execute(db)
  await sql`
    create index tutor_search_online_near on tutor_search_online
      using gist (point(lng + 1000 * subject_id, lat + 1000 * weekday))
      include (subject_id, weekday, tutor_id, lat, lng, tutoring_experience_months, overall_rating, review_count, away)
      where lat is not null and lng is not null
  `.execute(db)
  await sql`
    create index tutor_search_online_unplaced on tutor_search_online (subject_id, weekday, tutor_id)
      include (tutoring_experience_months, overall_rating, review_count, away)
      where lat is null or lng is null
  `.execute(db)

  await sql`drop index tutor_search_in_person_reach`.execute(db)
  await sql`
    create index tutor_search_in_person_reach on tutor_search_in_person using gist (reach)
      include (subject_id, tutor_id, schedule_mask, lat, lng, travel_distance_miles, tutoring_experience_months, overall_rating, review_count, away)
  `.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  // The live files that name `away` go with it; the next migrate applies them again.
  for (const file of ['search/holidays.sql', 'search/online-rows.sql', 'search/in-person-rows.sql', 'search/tutor-records.sql']) {
    await sql`delete from repeatable_sql where name = ${file}`.execute(db)
  }
  for (const operation of ['insert', 'update', 'delete']) {
    await sql.raw(`drop trigger if exists tutor_search_away_${operation} on holidays`).execute(db)
  }
  // Their conditions name `away`; the files above make them again.
  for (const table of ['online', 'in_person']) await sql.raw(`drop trigger if exists tutor_search_${table}_update on tutor_search`).execute(db)
  await sql`drop function if exists tutor_search_away_after_change()`.execute(db)
  await sql`drop function if exists tutor_search_refresh_away(bigint[])`.execute(db)
  for (const index of ['tutor_search_online_offer', 'tutor_search_online_near', 'tutor_search_online_unplaced', 'tutor_search_in_person_reach']) {
    await sql.raw(`drop index if exists ${index}`).execute(db)
  }
  for (const table of ['tutor_search', 'tutor_search_online', 'tutor_search_in_person']) {
    await sql.raw(`alter table ${table} drop column if exists away`).execute(db)
  }
  await sql`
    alter table tutor_search_online add primary key (subject_id, weekday, tutor_id)
      include (lat, lng, tutoring_experience_months, overall_rating, review_count)
  `.execute(db)
  await sql`
    create index tutor_search_in_person_reach on tutor_search_in_person using gist (reach)
      include (subject_id, tutor_id, schedule_mask, lat, lng, travel_distance_miles, tutoring_experience_months, overall_rating, review_count)
  `.execute(db)
}
