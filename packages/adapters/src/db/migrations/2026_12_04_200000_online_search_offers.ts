import { sql, type Kysely } from 'kysely'

/**
 * `tutor_search_online`: the commonest search (a subject, a date, online) as a covering
 * index. One row per searchable, subscribed tutor, subject they teach and weekday their
 * schedule offers online lessons, kept by a row trigger on `tutor_search` in the same
 * transaction as every change to it. Search answers such a query from an index-only scan of
 * the matching rows alone, instead of visiting a heap page of `tutor_search` for each of
 * thousands of matches (measured at 100,000 tutors: 10 ms down to 3 ms, RESULTS.md).
 */
// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table tutor_search_online (
      subject_id integer not null,
      weekday smallint not null check (weekday between 0 and 6),
      tutor_id bigint not null references tutor_search (tutor_id) on delete cascade,
      lat double precision,
      lng double precision,
      tutoring_experience_months integer,
      primary key (subject_id, weekday, tutor_id) include (lat, lng, tutoring_experience_months)
    )
  `.execute(db)
  await sql`create index tutor_search_online_tutor on tutor_search_online (tutor_id)`.execute(db)

  // Online is row 2 of schedule_mask: bit 14 + weekday.
  await sql`
    create function tutor_search_online_rows(ts tutor_search) returns table (subject_id integer, weekday smallint)
    language sql immutable as $fn$
      select s, d::smallint from unnest(ts.subject_ids) s, generate_series(0, 6) d
      where ts.searchable and ts.subscribed and ts.schedule_mask & (1 << (14 + d)) <> 0
    $fn$
  `.execute(db)
  await sql`
    create function tutor_search_online_sync() returns trigger language plpgsql as $fn$
    begin
      -- A deleted tutor_search row takes its rows along (the foreign key cascades).
      if TG_OP = 'UPDATE' then
        delete from tutor_search_online where tutor_id = old.tutor_id;
      end if;
      insert into tutor_search_online (subject_id, weekday, tutor_id, lat, lng, tutoring_experience_months)
        select r.subject_id, r.weekday, new.tutor_id, new.lat, new.lng, new.tutoring_experience_months
        from tutor_search_online_rows(new) r;
      return null;
    end
    $fn$
  `.execute(db)
  await sql`create trigger tutor_search_online_insert after insert on tutor_search for each row execute function tutor_search_online_sync()`.execute(db)
  // Only when what the rows are made of changed: the refresh rewrites updated_at every time.
  await sql`
    create trigger tutor_search_online_update after update on tutor_search for each row
    when ((old.searchable, old.subscribed, old.subject_ids, old.schedule_mask, old.lat, old.lng, old.tutoring_experience_months)
      is distinct from (new.searchable, new.subscribed, new.subject_ids, new.schedule_mask, new.lat, new.lng, new.tutoring_experience_months))
    execute function tutor_search_online_sync()
  `.execute(db)

  await sql`
    insert into tutor_search_online (subject_id, weekday, tutor_id, lat, lng, tutoring_experience_months)
      select r.subject_id, r.weekday, ts.tutor_id, ts.lat, ts.lng, ts.tutoring_experience_months
      from tutor_search ts cross join lateral tutor_search_online_rows(ts) r
  `.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const operation of ['insert', 'update']) {
    await sql.raw(`drop trigger if exists tutor_search_online_${operation} on tutor_search`).execute(db)
  }
  await sql`drop function if exists tutor_search_online_sync()`.execute(db)
  await sql`drop function if exists tutor_search_online_rows(tutor_search)`.execute(db)
  await sql`drop table if exists tutor_search_online`.execute(db)
}
