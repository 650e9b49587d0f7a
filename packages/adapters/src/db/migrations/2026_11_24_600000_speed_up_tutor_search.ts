import { sql, type Kysely } from 'kysely'

/**
 * Search without per-tutor probes: `tutor_search` also keeps, by triggers like the rest of it,
 *
 * - `schedule_mask`: rule 4 ahead of the query, bit `7 * type + day` set when some schedule
 *   window on weekday `day` (0 Sunday .. 6 Saturday) belongs to an entry offering lesson type
 *   `type` (0 tutors_home, 1 students_home, 2 online);
 * - `subject_ids`: the subjects of the tutor's enabled, live teaches;
 * - `search_keys`: one GIN-indexed int[] that a search intersects in a single index scan:
 *   the subject ids (positive), schedule keys (-1..-21 one bit, -100..-102 a type on any day,
 *   -200..-206 a day of any type, -110 any window) and, for in-person reach, the grid cells
 *   (0.25° of latitude by 0.4° of longitude, keys <= -1000) that the tutor's travel box
 *   (boxAround in the repository: miles / 69 degrees of latitude, longitude at the poleward
 *   edge) touches. A student inside the reach lies inside the box, so inside one of its cells.
 *
 * One index on one column, because the planner has statistics for array elements but none for
 * geometric containment (a GiST box index is always guessed at 0.1 % of the rows, and then
 * never combined with another index even when it matches a fifth of the table).
 */
// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('tutor_search')
    .addColumn('schedule_mask', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('subject_ids', sql`integer[]`, (c) => c.notNull().defaultTo(sql`'{}'::integer[]`))
    .addColumn('search_keys', sql`integer[]`, (c) => c.notNull().defaultTo(sql`'{}'::integer[]`))
    .execute()

  await sql`
    create function tutor_search_cell(lat double precision, lng double precision) returns integer
    language sql immutable parallel safe as $fn$
      select -(1000 + least(719, greatest(0, floor((lat + 90) / 0.25)))::int * 1000 + least(899, greatest(0, floor((lng + 180) / 0.4)))::int)
    $fn$
  `.execute(db)
  await sql`
    create function tutor_search_reach_cells(lat double precision, lng double precision, miles double precision) returns integer[]
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
    $fn$
  `.execute(db)
  await sql`
    create function tutor_search_schedule_keys(mask integer) returns integer[]
    language sql immutable parallel safe as $fn$
      select coalesce(array_agg(k order by k desc), '{}') from (
        select -(1 + b) as k from generate_series(0, 20) b where mask & (1 << b) <> 0
        union all select -(100 + t) from generate_series(0, 2) t where mask & (127 << (7 * t)) <> 0
        union all select -(200 + d) from generate_series(0, 6) d where mask & ((1 << d) | (1 << (7 + d)) | (1 << (14 + d))) <> 0
        union all select -110 where mask <> 0
      ) s
    $fn$
  `.execute(db)
  await sql`
    create function tutor_search_keys_of(subject_ids integer[], mask integer, lat double precision, lng double precision, miles double precision)
    returns integer[] language sql immutable parallel safe as $fn$
      select subject_ids || tutor_search_schedule_keys(mask) || tutor_search_reach_cells(lat, lng, miles)
    $fn$
  `.execute(db)
  // Rule 4 as search reads it: the windows' weekday, the entry's lesson types.
  await sql`
    create function tutor_search_schedule_mask(tutor bigint) returns integer language sql stable as $fn$
      select coalesce(bit_or(1 << (7 * case lt when 'tutors_home' then 0 when 'students_home' then 1 else 2 end + w.day)), 0)::int
      from day_availability_slots w
      join day_availabilities d on d.id = w.day_availability_id
      cross join lateral unnest(d.lesson_types) lt
      where w.tutor_id = tutor
    $fn$
  `.execute(db)
  await sql`
    create function tutor_search_subject_ids(tutor bigint) returns integer[] language sql stable as $fn$
      select coalesce(array_agg(distinct t.subject_id order by t.subject_id), '{}')
      from teaches t where t.tutor_id = tutor and t.enabled and t.deleted_at is null
    $fn$
  `.execute(db)

  // A new row reads its schedule and subjects (a tutor whose role comes back already has
  // them); any row recomputes its keys when what they are made of changed.
  await sql`
    create function tutor_search_before_write() returns trigger language plpgsql as $fn$
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
    $fn$
  `.execute(db)
  await sql`create trigger tutor_search_keys before insert or update on tutor_search for each row execute function tutor_search_before_write()`.execute(db)

  // As tutor_search_refresh: lock the rows in order, then read in a new statement what the
  // transactions that held them committed. Rows whose values did not change are not written.
  await sql`
    create function tutor_search_refresh_offer(ids bigint[]) returns void language plpgsql as $fn$
    begin
      if ids is null or cardinality(ids) = 0 then
        return;
      end if;
      perform 1 from tutor_search where tutor_id = any(ids) order by tutor_id for update;
      update tutor_search ts set schedule_mask = v.mask, subject_ids = v.subjects, updated_at = now()
      from (select id, tutor_search_schedule_mask(id) as mask, tutor_search_subject_ids(id) as subjects from unnest(ids) id) v
      where ts.tutor_id = v.id and (ts.schedule_mask <> v.mask or ts.subject_ids <> v.subjects);
    end
    $fn$
  `.execute(db)
  await sql`
    create function tutor_search_offer_after_change() returns trigger language plpgsql as $fn$
    declare
      affected bigint[];
    begin
      if TG_OP = 'INSERT' then
        select array_agg(distinct r.tutor_id) into affected from new_rows r;
      elsif TG_OP = 'DELETE' then
        select array_agg(distinct r.tutor_id) into affected from old_rows r;
      else
        select array_agg(distinct k) into affected from (select r.tutor_id as k from new_rows r union select r.tutor_id from old_rows r) s;
      end if;
      perform tutor_search_refresh_offer(array_remove(affected, null));
      return null;
    end
    $fn$
  `.execute(db)
  for (const table of OFFER_TABLES) {
    for (const operation of ['insert', 'update', 'delete']) {
      const transition =
        operation === 'insert' ? 'new table as new_rows' : operation === 'delete' ? 'old table as old_rows' : 'old table as old_rows new table as new_rows'
      await sql
        .raw(
          `create trigger tutor_search_offer_${operation} after ${operation} on ${table} referencing ${transition} ` +
            `for each statement execute function tutor_search_offer_after_change()`,
        )
        .execute(db)
    }
  }

  // Tutors who exist already.
  await sql`
    update tutor_search set
      schedule_mask = tutor_search_schedule_mask(tutor_id),
      subject_ids = tutor_search_subject_ids(tutor_id),
      search_keys = tutor_search_keys_of(tutor_search_subject_ids(tutor_id), tutor_search_schedule_mask(tutor_id), lat, lng, travel_distance_miles)
  `.execute(db)

  await sql`create index tutor_search_searchable_keys on tutor_search using gin (search_keys) where searchable`.execute(db)
  // The lat/lng box and the longest travel distance were the old way to rule 6.
  await sql`drop index if exists tutor_search_searchable_lat_lng`.execute(db)
  await sql`drop index if exists tutor_search_searchable_travel`.execute(db)
}

const OFFER_TABLES = ['day_availability_slots', 'day_availabilities', 'teaches']

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists tutor_search_searchable_lat_lng on tutor_search (lat, lng) where searchable`.execute(db)
  await sql`create index if not exists tutor_search_searchable_travel on tutor_search (travel_distance_miles) where searchable`.execute(db)
  await sql`drop index if exists tutor_search_searchable_keys`.execute(db)
  for (const table of OFFER_TABLES) {
    for (const operation of ['insert', 'update', 'delete']) {
      await sql.raw(`drop trigger if exists tutor_search_offer_${operation} on ${table}`).execute(db)
    }
  }
  await sql`drop trigger if exists tutor_search_keys on tutor_search`.execute(db)
  await sql`drop function if exists tutor_search_offer_after_change()`.execute(db)
  await sql`drop function if exists tutor_search_refresh_offer(bigint[])`.execute(db)
  await sql`drop function if exists tutor_search_before_write()`.execute(db)
  await sql`drop function if exists tutor_search_subject_ids(bigint)`.execute(db)
  await sql`drop function if exists tutor_search_schedule_mask(bigint)`.execute(db)
  await sql`drop function if exists tutor_search_keys_of(integer[], integer, double precision, double precision, double precision)`.execute(db)
  await sql`drop function if exists tutor_search_schedule_keys(integer)`.execute(db)
  await sql`drop function if exists tutor_search_reach_cells(double precision, double precision, double precision)`.execute(db)
  await sql`drop function if exists tutor_search_cell(double precision, double precision)`.execute(db)
  await db.schema.alterTable('tutor_search').dropColumn('search_keys').dropColumn('subject_ids').dropColumn('schedule_mask').execute()
}
