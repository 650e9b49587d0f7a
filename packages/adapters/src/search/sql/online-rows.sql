-- `tutor_search_online`: the commonest search (a subject, a date, online) as a covering index.
-- One row per searchable, subscribed tutor (rules 1-3 and 8), subject they teach and weekday their
-- schedule offers online lessons (rule 4), kept by row triggers on `tutor_search` in the same
-- transaction as every change to it, copying what the online path sorts by.

-- Online is row 2 of schedule_mask: bit 14 + weekday.
create or replace function tutor_search_online_rows(ts tutor_search) returns table (subject_id integer, weekday smallint)
language sql immutable as $fn$
  select s, d::smallint from unnest(ts.subject_ids) s, generate_series(0, 6) d
  where ts.searchable and ts.subscribed and ts.schedule_mask & (1 << (14 + d)) <> 0
$fn$;

create or replace function tutor_search_online_sync() returns trigger language plpgsql as $fn$
begin
  -- A bulk load writes the rows itself, once, with tutor_search_online_refresh.
  if tutor_search_refresh_deferred() then return null; end if;
  -- A deleted tutor_search row takes its rows along (the foreign key cascades).
  if TG_OP = 'UPDATE' then
    delete from tutor_search_online where tutor_id = old.tutor_id;
  end if;
  insert into tutor_search_online (subject_id, weekday, tutor_id, lat, lng, tutoring_experience_months, overall_rating, review_count, away)
    select r.subject_id, r.weekday, new.tutor_id, new.lat, new.lng, new.tutoring_experience_months, new.overall_rating, new.review_count, new.away
    from tutor_search_online_rows(new) r;
  return null;
end
$fn$;

create or replace trigger tutor_search_online_insert after insert on tutor_search for each row execute function tutor_search_online_sync();
-- Only when what the rows are made of, or a copied column, changed: the refresh rewrites updated_at every time.
create or replace trigger tutor_search_online_update after update on tutor_search for each row
  when ((old.searchable, old.subscribed, old.subject_ids, old.schedule_mask, old.lat, old.lng, old.tutoring_experience_months, old.overall_rating, old.review_count, old.away)
    is distinct from (new.searchable, new.subscribed, new.subject_ids, new.schedule_mask, new.lat, new.lng, new.tutoring_experience_months, new.overall_rating, new.review_count, new.away))
  execute function tutor_search_online_sync();

-- A bulk load's set-based write of its tutors' rows, once per chunk, instead of the row trigger.
create or replace function tutor_search_online_refresh(ids bigint[]) returns void language plpgsql as $fn$
begin
  if ids is null or cardinality(ids) = 0 then
    return;
  end if;
  delete from tutor_search_online where tutor_id = any(ids);
  insert into tutor_search_online (subject_id, weekday, tutor_id, lat, lng, tutoring_experience_months, overall_rating, review_count, away)
    select r.subject_id, r.weekday, ts.tutor_id, ts.lat, ts.lng, ts.tutoring_experience_months, ts.overall_rating, ts.review_count, ts.away
    from tutor_search ts cross join lateral tutor_search_online_rows(ts) r
    where ts.tutor_id = any(ids);
end
$fn$;

-- `sort=distance` online (the repository's `nearestOnline`): index `tutor_search_online_near`
-- holds each row's public point shifted 1000 degrees of longitude per subject id and of latitude
-- per weekday, so each (subject, weekday) lies apart from every other in the tree.
-- The student's place, shifted alike: only the order of the nearest rows, which bounds the page.
create or replace function tutor_search_online_point(subject integer, weekday integer, lat double precision, lng double precision) returns point
language sql immutable parallel safe as $fn$
  select point(lng + 1000 * subject, lat + 1000 * weekday)
$fn$;

-- Where the rows of one (subject, weekday) lie, shifted: a nearest-first scan stops at its edge.
create or replace function tutor_search_online_region(subject integer, weekday integer) returns box
language sql immutable parallel safe as $fn$
  select box(point(1000 * subject - 500, 1000 * weekday - 500), point(1000 * subject + 500, 1000 * weekday + 500))
$fn$;

-- `boxAround` of the repository about the student's place, shifted as the index's points are:
-- every public point within `miles` lies inside. As in in-person-rows.sql, the points and the
-- box's edges are shifted by the same float8 addition, which keeps the order of the two.
create or replace function tutor_search_online_box(subject integer, weekday integer, lat double precision, lng double precision, miles double precision) returns box
language sql immutable parallel safe as $fn$
  select box(
    point(lng - s.lng_span + 1000 * subject, lat - s.lat_span + 1000 * weekday),
    point(lng + s.lng_span + 1000 * subject, lat + s.lat_span + 1000 * weekday))
  from (select miles / 69 as lat_span, miles / (69 * cos(radians(least(89, abs(lat) + miles / 69)))) as lng_span) s
$fn$;
