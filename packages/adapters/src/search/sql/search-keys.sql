-- `search_keys`: one GIN-indexed int[] that a search intersects in a single index scan (see
-- `searchKeys` in search/tutor-search.repository.ts): the subject ids (positive), schedule keys
-- (-1..-21 one bit of `schedule_mask`, -100..-102 a lesson type on any day, -200..-206 a day of
-- any type, -110 any window) and, for in-person reach (rule 6), the grid cells (0.25° of latitude
-- by 0.4° of longitude, keys <= -1000) that the tutor's travel box touches (`boxAround` in the
-- repository: miles / 69 degrees of latitude, longitude at the poleward edge). A student inside
-- the reach lies inside the box, so inside one of its cells; the exact distance still decides.

create or replace function tutor_search_cell(lat double precision, lng double precision) returns integer
language sql immutable parallel safe as $fn$
  select -(1000 + least(719, greatest(0, floor((lat + 90) / 0.25)))::int * 1000 + least(899, greatest(0, floor((lng + 180) / 0.4)))::int)
$fn$;

create or replace function tutor_search_reach_cells(lat double precision, lng double precision, miles double precision) returns integer[]
language sql immutable parallel safe as $fn$
  select coalesce(array_agg(-(1000 + r * 1000 + c) order by r, c), '{}')
  from (select miles / 69 as lat_span, miles / (69 * cos(radians(least(89, abs(lat) + miles / 69)))) as lng_span) s
  cross join lateral generate_series(
    least(719, greatest(0, floor((lat - s.lat_span + 90) / 0.25)))::int,
    least(719, greatest(0, floor((lat + s.lat_span + 90) / 0.25)))::int) r
  cross join lateral generate_series(
    least(899, greatest(0, floor((lng - s.lng_span + 180) / 0.4)))::int,
    least(899, greatest(0, floor((lng + s.lng_span + 180) / 0.4)))::int) c
  where lat is not null and lng is not null and miles is not null
$fn$;

create or replace function tutor_search_schedule_keys(mask integer) returns integer[]
language sql immutable parallel safe as $fn$
  select coalesce(array_agg(k order by k desc), '{}') from (
    select -(1 + b) as k from generate_series(0, 20) b where mask & (1 << b) <> 0
    union all select -(100 + t) from generate_series(0, 2) t where mask & (127 << (7 * t)) <> 0
    union all select -(200 + d) from generate_series(0, 6) d where mask & ((1 << d) | (1 << (7 + d)) | (1 << (14 + d))) <> 0
    union all select -110 where mask <> 0
  ) s
$fn$;

create or replace function tutor_search_keys_of(subject_ids integer[], mask integer, lat double precision, lng double precision, miles double precision)
returns integer[] language sql immutable parallel safe as $fn$
  select subject_ids || tutor_search_schedule_keys(mask) || tutor_search_reach_cells(lat, lng, miles)
$fn$;

-- A new row reads its schedule and subjects (a tutor whose role comes back already has
-- them); any row recomputes its keys when what they are made of changed.
create or replace function tutor_search_before_write() returns trigger language plpgsql as $fn$
begin
  if TG_OP = 'INSERT' then
    new.schedule_mask := tutor_search_schedule_mask(new.tutor_id);
    new.subject_ids := tutor_search_subject_ids(new.tutor_id);
  elsif new.schedule_mask = old.schedule_mask and new.subject_ids = old.subject_ids
    and new.lat is not distinct from old.lat and new.lng is not distinct from old.lng
    and new.travel_distance_miles is not distinct from old.travel_distance_miles then
    return new;
  end if;
  new.search_keys := tutor_search_keys_of(new.subject_ids, new.schedule_mask, new.lat, new.lng, new.travel_distance_miles);
  return new;
end
$fn$;

create or replace trigger tutor_search_keys before insert or update on tutor_search for each row execute function tutor_search_before_write();
