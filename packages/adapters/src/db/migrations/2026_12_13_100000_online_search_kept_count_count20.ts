import { sql, type Kysely } from 'kysely'

/**
 * The online search's `meta.total` from a kept count instead of a scan of every match
 * (issue 20, RESULTS.md): `tutor_search_online_counts` (deltas per subject and weekday, summed)
 * and `tutor_search_online_away` (each online row's holiday ranges, for the rows away on the
 * date). Their upkeep lives in search/sql/online-count.sql; this makes the tables and fills them.
 * The triggers are made here too, as the file had them when this was written, before the fill
 * and in its transaction: they lock `tutor_search_online` against writers until the counts
 * hold, where the file alone would come in a later transaction and miss what was written between.
 */
// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table tutor_search_online_counts (subject_id integer not null, weekday smallint not null, n bigint not null)`.execute(db)
  await sql`
    create table tutor_search_online_away (subject_id integer not null, weekday smallint not null, tutor_id bigint not null, during daterange not null)
  `.execute(db)
  await sql`
    create function tutor_search_online_count_after_change() returns trigger language plpgsql as $fn$
    begin
      if TG_OP = 'INSERT' then
        insert into tutor_search_online_counts (subject_id, weekday, n)
          select r.subject_id, r.weekday, count(*) from new_rows r group by 1, 2;
      elsif TG_OP = 'DELETE' then
        insert into tutor_search_online_counts (subject_id, weekday, n)
          select r.subject_id, r.weekday, -count(*) from old_rows r group by 1, 2;
      else
        insert into tutor_search_online_counts (subject_id, weekday, n)
          select c.subject_id, c.weekday, sum(c.n) from (
            select r.subject_id, r.weekday, 1 as n from new_rows r
            union all
            select r.subject_id, r.weekday, -1 from old_rows r
          ) c group by 1, 2 having sum(c.n) <> 0;
      end if;
      if TG_OP in ('UPDATE', 'DELETE') then
        if exists (select 1 from old_rows r where r.away is not null) then
          execute 'delete from tutor_search_online_away a using old_rows r
            where a.tutor_id = r.tutor_id and a.subject_id = r.subject_id and a.weekday = r.weekday';
        end if;
      end if;
      if TG_OP in ('INSERT', 'UPDATE') then
        insert into tutor_search_online_away (subject_id, weekday, tutor_id, during)
          select r.subject_id, r.weekday, r.tutor_id, d from new_rows r cross join lateral unnest(r.away) d;
      end if;
      return null;
    end
    $fn$
  `.execute(db)
  const transitions = { insert: 'new table as new_rows', update: 'old table as old_rows new table as new_rows', delete: 'old table as old_rows' }
  for (const [operation, tables] of Object.entries(transitions)) {
    await sql
      .raw(
        `create trigger tutor_search_online_count_${operation} after ${operation} on tutor_search_online
          referencing ${tables} for each statement execute function tutor_search_online_count_after_change()`,
      )
      .execute(db)
  }
  await sql`insert into tutor_search_online_counts (subject_id, weekday, n) select subject_id, weekday, count(*) from tutor_search_online group by 1, 2`.execute(db)
  await sql`
    insert into tutor_search_online_away (subject_id, weekday, tutor_id, during)
    select r.subject_id, r.weekday, r.tutor_id, d from tutor_search_online r cross join lateral unnest(r.away) d
  `.execute(db)
  await sql`create index tutor_search_online_counts_key on tutor_search_online_counts (subject_id, weekday) include (n)`.execute(db)
  await sql`create index tutor_search_online_away_during on tutor_search_online_away using gist (subject_id, weekday, during)`.execute(db)
  await sql`create index tutor_search_online_away_tutor on tutor_search_online_away (tutor_id, subject_id, weekday)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const operation of ['insert', 'update', 'delete']) {
    await sql.raw(`drop trigger if exists tutor_search_online_count_${operation} on tutor_search_online`).execute(db)
  }
  await sql`drop function if exists tutor_search_online_count_after_change()`.execute(db)
  await sql`drop function if exists tutor_search_online_compact_counts()`.execute(db)
  await sql`delete from repeatable_sql where name = 'search/online-count.sql'`.execute(db)
  await sql`drop table if exists tutor_search_online_away`.execute(db)
  await sql`drop table if exists tutor_search_online_counts`.execute(db)
}
