-- The online path's `meta.total` without reading every match (the repository's `onlineTotal`):
-- the rows of a (subject, weekday) in `tutor_search_online`, minus those of tutors away on the date.
--
-- `tutor_search_online_counts` holds deltas, no primary key: `sum(n)` over a (subject, weekday) is
-- its number of rows. Each statement writing `tutor_search_online` inserts one delta per key it
-- touched, never updates one, so concurrent tutor writes never wait on a shared counter row.
-- `tutor_search_online_compact_counts` folds each key's deltas into one row now and then.
--
-- `tutor_search_online_away` holds one row per online row and range of its `away` (range_agg
-- made them disjoint, so a date lies in at most one range of a row): the rows of a key away on a
-- date are a GiST count of the ranges holding it. Each range is its own entry, so past holidays
-- never widen what a date's lookup reads.

create or replace function tutor_search_online_count_after_change() returns trigger language plpgsql as $fn$
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
  -- A tutor has one row per (subject, weekday): its ranges go with it, found by
  -- tutor_search_online_away_tutor. Planned each time: a plan kept from when the table was
  -- nearly empty read all of it for every tutor (20,000 tutors' holidays written at 100,000
  -- tutors took minutes, growing with the square).
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
$fn$;

create or replace trigger tutor_search_online_count_insert after insert on tutor_search_online
  referencing new table as new_rows for each statement execute function tutor_search_online_count_after_change();
create or replace trigger tutor_search_online_count_update after update on tutor_search_online
  referencing old table as old_rows new table as new_rows for each statement execute function tutor_search_online_count_after_change();
create or replace trigger tutor_search_online_count_delete after delete on tutor_search_online
  referencing old table as old_rows for each statement execute function tutor_search_online_count_after_change();

-- One row per key again (none for a key summing to 0); answers the rows folded. The insert sums
-- exactly the rows this statement deleted, so the sums stay right beside writers and other
-- compactions (a row another deleted first is not returned here). The lock only spares the work
-- of two at once.
create or replace function tutor_search_online_compact_counts() returns bigint language plpgsql as $fn$
declare
  folded bigint;
begin
  if not pg_try_advisory_xact_lock(hashtext('tutor_search_online_counts')) then
    return 0;
  end if;
  -- Planned each time, for the deltas there are now (a few, or a bulk write's hundreds of thousands).
  execute 'with gone as (
    delete from tutor_search_online_counts c
    where (c.subject_id, c.weekday) in (select k.subject_id, k.weekday from tutor_search_online_counts k group by 1, 2 having count(*) > 1)
    returning c.subject_id, c.weekday, c.n
  ), kept as (
    insert into tutor_search_online_counts (subject_id, weekday, n)
    select g.subject_id, g.weekday, sum(g.n) from gone g group by 1, 2 having sum(g.n) <> 0
  )
  select count(*) from gone' into folded;
  return folded;
end
$fn$;
