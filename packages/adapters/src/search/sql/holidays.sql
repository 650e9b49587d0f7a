-- Rule 5 (the domain's `isOnHoliday`) without a probe of `holidays` per match: `tutor_search.away`
-- holds each tutor's holidays (inclusive dates) as one datemultirange, null without any, kept
-- in the same transaction as every write to `holidays` and by `tutor_search_refresh`
-- (tutor-records.sql), which a bulk load calls at its end. The row triggers copy it into
-- `tutor_search_online` and `tutor_search_in_person`, whose indexes include it, so a search tests
-- `away @> date` on the index tuple it already reads. Past holidays stay: search may ask about
-- any date its caller's today allows, and a tutor holds few.

create or replace function tutor_search_away(tutor bigint) returns datemultirange language sql stable as $fn$
  select range_agg(daterange(h.start_date, h.end_date, '[]')) from holidays h where h.tutor_id = tutor
$fn$;

-- As tutor_search_refresh_rating: lock the rows in order, then read what committed before.
create or replace function tutor_search_refresh_away(ids bigint[]) returns void language plpgsql as $fn$
begin
  if ids is null or cardinality(ids) = 0 then
    return;
  end if;
  perform 1 from tutor_search where tutor_id = any(ids) order by tutor_id for update;
  update tutor_search ts set away = v.away, updated_at = now()
  from (select k.id, tutor_search_away(k.id) as away from unnest(ids) k(id)) v
  where ts.tutor_id = v.id and ts.away is distinct from v.away;
end
$fn$;

create or replace function tutor_search_away_after_change() returns trigger language plpgsql as $fn$
declare
  affected bigint[];
begin
  if tutor_search_refresh_deferred() then
    return null;
  end if;
  if TG_OP = 'INSERT' then
    select array_agg(distinct r.tutor_id) into affected from new_rows r;
  elsif TG_OP = 'DELETE' then
    select array_agg(distinct r.tutor_id) into affected from old_rows r;
  else
    select array_agg(distinct k) into affected from (select r.tutor_id as k from new_rows r union select r.tutor_id from old_rows r) s;
  end if;
  perform tutor_search_refresh_away(array_remove(affected, null));
  return null;
end
$fn$;

create or replace trigger tutor_search_away_insert after insert on holidays referencing new table as new_rows for each statement execute function tutor_search_away_after_change();
create or replace trigger tutor_search_away_update after update on holidays referencing old table as old_rows new table as new_rows for each statement execute function tutor_search_away_after_change();
create or replace trigger tutor_search_away_delete after delete on holidays referencing old table as old_rows for each statement execute function tutor_search_away_after_change();
