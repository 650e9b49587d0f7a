-- What a tutor offers, kept in `tutor_search` by triggers like the rest of the row:
-- `schedule_mask` holds rule 4 ahead of the query (`hasAvailability` in
-- packages/domain/src/search/eligibility.ts: a schedule window on the weekday offering the
-- lesson type), bit `7 * type + day` set when some window on weekday `day` (0 Sunday .. 6
-- Saturday) belongs to an entry offering lesson type `type` (0 tutors_home, 1 students_home,
-- 2 online); `subject_ids` holds the subjects of the tutor's enabled, live teaches.

create or replace function tutor_search_schedule_mask(tutor bigint) returns integer language sql stable as $fn$
  select coalesce(bit_or(1 << (7 * case lt when 'tutors_home' then 0 when 'students_home' then 1 else 2 end + w.day)), 0)::int
  from day_availability_slots w
  join day_availabilities d on d.id = w.day_availability_id
  cross join lateral unnest(d.lesson_types) lt
  where w.tutor_id = tutor
$fn$;

create or replace function tutor_search_subject_ids(tutor bigint) returns integer[] language sql stable as $fn$
  select coalesce(array_agg(distinct t.subject_id order by t.subject_id), '{}')
  from teaches t where t.tutor_id = tutor and t.enabled and t.deleted_at is null
$fn$;

-- As tutor_search_refresh: lock the rows in order, then read in a new statement what the
-- transactions that held them committed. Rows whose values did not change are not written.
create or replace function tutor_search_refresh_offer(ids bigint[]) returns void language plpgsql as $fn$
begin
  if ids is null or cardinality(ids) = 0 then
    return;
  end if;
  perform 1 from tutor_search where tutor_id = any(ids) order by tutor_id for update;
  update tutor_search ts set schedule_mask = v.mask, subject_ids = v.subjects, updated_at = now()
  from (select id, tutor_search_schedule_mask(id) as mask, tutor_search_subject_ids(id) as subjects from unnest(ids) id) v
  where ts.tutor_id = v.id and (ts.schedule_mask <> v.mask or ts.subject_ids <> v.subjects);
end
$fn$;

create or replace trigger tutor_search_offer_insert after insert on day_availability_slots referencing new table as new_rows for each statement execute function tutor_search_after_change('r.tutor_id', 'tutor_search_refresh_offer');
create or replace trigger tutor_search_offer_update after update on day_availability_slots referencing old table as old_rows new table as new_rows for each statement execute function tutor_search_after_change('r.tutor_id', 'tutor_search_refresh_offer');
create or replace trigger tutor_search_offer_delete after delete on day_availability_slots referencing old table as old_rows for each statement execute function tutor_search_after_change('r.tutor_id', 'tutor_search_refresh_offer');

create or replace trigger tutor_search_offer_insert after insert on day_availabilities referencing new table as new_rows for each statement execute function tutor_search_after_change('r.tutor_id', 'tutor_search_refresh_offer');
create or replace trigger tutor_search_offer_update after update on day_availabilities referencing old table as old_rows new table as new_rows for each statement execute function tutor_search_after_change('r.tutor_id', 'tutor_search_refresh_offer');
create or replace trigger tutor_search_offer_delete after delete on day_availabilities referencing old table as old_rows for each statement execute function tutor_search_after_change('r.tutor_id', 'tutor_search_refresh_offer');

create or replace trigger tutor_search_offer_insert after insert on teaches referencing new table as new_rows for each statement execute function tutor_search_after_change('r.tutor_id', 'tutor_search_refresh_offer');
create or replace trigger tutor_search_offer_update after update on teaches referencing old table as old_rows new table as new_rows for each statement execute function tutor_search_after_change('r.tutor_id', 'tutor_search_refresh_offer');
create or replace trigger tutor_search_offer_delete after delete on teaches referencing old table as old_rows for each statement execute function tutor_search_after_change('r.tutor_id', 'tutor_search_refresh_offer');

-- This file's own trigger function, from before tutor_search_after_change (bulk-deferral.sql) served them all.
drop function if exists tutor_search_offer_after_change();
