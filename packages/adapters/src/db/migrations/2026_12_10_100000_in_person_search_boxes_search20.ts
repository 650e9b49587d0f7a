import { sql, type Kysely } from 'kysely'

/**
 * `tutor_search_in_person`: in-person search as a covering GiST index of travel boxes, one row
 * per searchable, subscribed tutor with a location, an in-person window and a subject they
 * teach. Its upkeep (row triggers on `tutor_search`, the bulk refresh) and the box functions
 * live in search/sql/in-person-rows.sql; this makes the table and fills it once. At 1,000,000
 * tutors the in-person candidates came from heap pages of a 613 MB `tutor_search`, one page per
 * candidate (RESULTS.md, issue 20).
 */
// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table tutor_search_in_person (
      subject_id integer not null,
      tutor_id bigint not null references tutor_search (tutor_id) on delete cascade,
      reach box not null,
      schedule_mask integer not null,
      lat double precision not null,
      lng double precision not null,
      travel_distance_miles double precision not null,
      tutoring_experience_months integer,
      overall_rating double precision,
      review_count integer not null,
      primary key (tutor_id, subject_id)
    ) with (parallel_workers = 0)
  `.execute(db)
  await sql`
    create index tutor_search_in_person_reach on tutor_search_in_person using gist (reach)
      include (subject_id, tutor_id, schedule_mask, lat, lng, travel_distance_miles, tutoring_experience_months, overall_rating, review_count)
  `.execute(db)
  // The live file's definitions, as they stood when this was written: rows 0 and 1 of
  // schedule_mask are the in-person lesson types; the box is boxAround shifted 1000 degrees per subject.
  await sql`
    insert into tutor_search_in_person (subject_id, tutor_id, reach, schedule_mask, lat, lng, travel_distance_miles, tutoring_experience_months, overall_rating, review_count)
    select s, ts.tutor_id,
      box(point(ts.lng - b.lng_span + 1000 * s, ts.lat - b.lat_span), point(ts.lng + b.lng_span + 1000 * s, ts.lat + b.lat_span)),
      ts.schedule_mask, ts.lat, ts.lng, ts.travel_distance_miles, ts.tutoring_experience_months, ts.overall_rating, ts.review_count
    from tutor_search ts
    cross join lateral (select ts.travel_distance_miles / 69 as lat_span,
      ts.travel_distance_miles / (69 * cos(radians(least(89, abs(ts.lat) + ts.travel_distance_miles / 69)))) as lng_span) b
    cross join lateral unnest(ts.subject_ids) s
    where ts.searchable and ts.subscribed and ts.schedule_mask & 16383 <> 0
      and ts.lat is not null and ts.lng is not null and ts.travel_distance_miles is not null
  `.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  // The live file's triggers and functions go too: they would write to a table no longer there.
  for (const operation of ['insert', 'update']) {
    await sql.raw(`drop trigger if exists tutor_search_in_person_${operation} on tutor_search`).execute(db)
  }
  await sql`drop function if exists tutor_search_in_person_sync()`.execute(db)
  await sql`drop function if exists tutor_search_in_person_refresh(bigint[])`.execute(db)
  await sql`drop function if exists tutor_search_in_person_subjects(tutor_search)`.execute(db)
  await sql`drop function if exists tutor_search_place_box(integer, double precision, double precision)`.execute(db)
  await sql`drop function if exists tutor_search_reach_box(integer, double precision, double precision, double precision)`.execute(db)
  await sql`delete from repeatable_sql where name = 'search/in-person-rows.sql'`.execute(db)
  await sql`drop table if exists tutor_search_in_person`.execute(db)
}
