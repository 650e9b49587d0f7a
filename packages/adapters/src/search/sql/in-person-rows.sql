-- `tutor_search_in_person`: in-person search (a subject, a lesson type at the student's home or
-- the tutor's, the student's place) as a covering GiST index. One row per searchable,
-- subscribed tutor (rules 1-3 and 8) with a location, an in-person window on some weekday and a
-- subject they teach, holding the tutor's travel box (rule 6's candidates) and every column the
-- in-person path filters and sorts by. A search is then an index-only scan of the boxes holding
-- the student's place, instead of a heap page of `tutor_search` for each GIN candidate.
--
-- The box is `boxAround` of the repository (`tutor_search_reach_cells` in search-keys.sql
-- measures the same one), shifted 1000 degrees of longitude per subject id: the boxes of one
-- subject then lie apart from every other's, so the tree keeps each subject's boxes together
-- (69 buffers against 110 with btree_gist's (subject_id, box) at 100,000 tutors, RESULTS.md).
-- The student's place is shifted by the same float8 addition, which keeps the order of the two
-- (x <= y gives x + c <= y + c in floating point), so every box holding the place in degrees
-- holds it shifted. The box only finds candidates: subject_id and the exact distance decide.

create or replace function tutor_search_reach_box(subject integer, lat double precision, lng double precision, miles double precision) returns box
language sql immutable parallel safe as $fn$
  select box(
    point(lng - s.lng_span + 1000 * subject, lat - s.lat_span),
    point(lng + s.lng_span + 1000 * subject, lat + s.lat_span))
  from (select miles / 69 as lat_span, miles / (69 * cos(radians(least(89, abs(lat) + miles / 69)))) as lng_span) s
$fn$;

-- The student's place as the zero-sized box that search asks `reach @>` of.
create or replace function tutor_search_place_box(subject integer, lat double precision, lng double precision) returns box
language sql immutable parallel safe as $fn$
  select box(point(lng + 1000 * subject, lat), point(lng + 1000 * subject, lat))
$fn$;

-- Rows 0 (tutors_home) and 1 (students_home) of schedule_mask: bits 0-13.
create or replace function tutor_search_in_person_subjects(ts tutor_search) returns setof integer
language sql immutable as $fn$
  select s from unnest(ts.subject_ids) s
  where ts.searchable and ts.subscribed and ts.schedule_mask & 16383 <> 0
    and ts.lat is not null and ts.lng is not null and ts.travel_distance_miles is not null
$fn$;

create or replace function tutor_search_in_person_sync() returns trigger language plpgsql as $fn$
begin
  -- A bulk load writes the rows itself, once, with tutor_search_in_person_refresh.
  if tutor_search_refresh_deferred() then return null; end if;
  -- A deleted tutor_search row takes its rows along (the foreign key cascades).
  if TG_OP = 'UPDATE' then
    delete from tutor_search_in_person where tutor_id = old.tutor_id;
  end if;
  insert into tutor_search_in_person (subject_id, tutor_id, reach, schedule_mask, lat, lng, travel_distance_miles, tutoring_experience_months, overall_rating, review_count, away)
    select s, new.tutor_id, tutor_search_reach_box(s, new.lat, new.lng, new.travel_distance_miles), new.schedule_mask, new.lat, new.lng,
      new.travel_distance_miles, new.tutoring_experience_months, new.overall_rating, new.review_count, new.away
    from tutor_search_in_person_subjects(new) s;
  return null;
end
$fn$;

create or replace trigger tutor_search_in_person_insert after insert on tutor_search for each row execute function tutor_search_in_person_sync();
-- Only when what the rows are made of, or a copied column, changed: the refresh rewrites updated_at every time.
create or replace trigger tutor_search_in_person_update after update on tutor_search for each row
  when ((old.searchable, old.subscribed, old.subject_ids, old.schedule_mask, old.lat, old.lng, old.travel_distance_miles, old.tutoring_experience_months, old.overall_rating, old.review_count, old.away)
    is distinct from (new.searchable, new.subscribed, new.subject_ids, new.schedule_mask, new.lat, new.lng, new.travel_distance_miles, new.tutoring_experience_months, new.overall_rating, new.review_count, new.away))
  execute function tutor_search_in_person_sync();

-- A bulk load's set-based write of its tutors' rows, once per chunk, instead of the row trigger.
create or replace function tutor_search_in_person_refresh(ids bigint[]) returns void language plpgsql as $fn$
begin
  if ids is null or cardinality(ids) = 0 then
    return;
  end if;
  delete from tutor_search_in_person where tutor_id = any(ids);
  insert into tutor_search_in_person (subject_id, tutor_id, reach, schedule_mask, lat, lng, travel_distance_miles, tutoring_experience_months, overall_rating, review_count, away)
    select s, ts.tutor_id, tutor_search_reach_box(s, ts.lat, ts.lng, ts.travel_distance_miles), ts.schedule_mask, ts.lat, ts.lng,
      ts.travel_distance_miles, ts.tutoring_experience_months, ts.overall_rating, ts.review_count, ts.away
    from tutor_search ts cross join lateral tutor_search_in_person_subjects(ts) s
    where ts.tutor_id = any(ids);
end
$fn$;
