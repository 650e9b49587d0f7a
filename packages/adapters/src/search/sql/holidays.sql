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

create or replace trigger tutor_search_away_insert after insert on holidays referencing new table as new_rows for each statement execute function tutor_search_after_change('r.tutor_id', 'tutor_search_refresh_away');
create or replace trigger tutor_search_away_update after update on holidays referencing old table as old_rows new table as new_rows for each statement execute function tutor_search_after_change('r.tutor_id', 'tutor_search_refresh_away');
create or replace trigger tutor_search_away_delete after delete on holidays referencing old table as old_rows for each statement execute function tutor_search_after_change('r.tutor_id', 'tutor_search_refresh_away');

-- This file's own trigger function, from before tutor_search_after_change (bulk-deferral.sql) served them all.
drop function if exists tutor_search_away_after_change();
