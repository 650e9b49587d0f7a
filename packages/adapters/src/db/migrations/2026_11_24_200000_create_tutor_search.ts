import { sql, type Kysely } from 'kysely'

/**
 * `tutor_search`: one row per live tutor with what search can know ahead of a query (rules
 * 1-3 of SPEC "A tutor appears in results only when", location, gender, languages), kept
 * by triggers in the same transaction as every change to the records it is read from, so
 * every writer (repositories, the CLI, tests writing rows directly, other contexts' future
 * code) keeps it right without knowing about it. Schedules, holidays and teaches depend on
 * the query's date, lesson type and subject and are read live at search time.
 *
 * Triggers are statement-level with transition tables: a bulk insert of a thousand
 * addresses refreshes each affected tutor once, not a thousand times.
 */
// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tutor_search')
    .addColumn('tutor_id', 'bigint', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('profile_complete', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('verified', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_visible', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('searchable', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('lat', 'double precision')
    .addColumn('lng', 'double precision')
    .addColumn('travel_distance_miles', 'double precision')
    .addColumn('gender', 'text')
    .addColumn('language_ids', sql`integer[]`, (c) => c.notNull().defaultTo(sql`'{}'::integer[]`))
    .addColumn('tutoring_experience_months', 'integer')
    // No reviews yet: stays null until the review summary lands and writes it.
    .addColumn('overall_rating', 'double precision')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  // The bounding-box prefilter of in-person searches: a range on lat, lng checked in the index.
  await sql`create index tutor_search_searchable_lat_lng on tutor_search (lat, lng) where searchable`.execute(db)
  // The box's half-size is the longest travel distance among searchable tutors: a backward index scan.
  await sql`create index tutor_search_searchable_travel on tutor_search (travel_distance_miles) where searchable`.execute(db)
  await sql`create index tutor_search_searchable_rating on tutor_search (overall_rating desc nulls last, tutor_id) where searchable`.execute(db)

  // Search's teach per tutor: the cheapest enabled one, read through the tutor's own teaches.
  await sql`create index teaches_tutor_available on teaches (tutor_id, hourly_rate_pence, id) where enabled and deleted_at is null`.execute(db)

  // A changed file finds the profile showing it without reading every profile.
  await sql`create index profiles_picture_file on profiles (profile_picture_file_id) where profile_picture_file_id is not null`.execute(db)
  await sql`create index profiles_video_file on profiles (profile_video_file_id) where profile_video_file_id is not null`.execute(db)

  // Recomputes the rows of the given users: inserted or updated for live tutors, deleted otherwise.
  await sql`
    create function tutor_search_refresh(ids bigint[]) returns void language plpgsql as $fn$
    begin
      if ids is null or cardinality(ids) = 0 then
        return;
      end if;
      insert into tutor_search (tutor_id)
        select u.id from users u
        where u.id = any(ids) and u.role_id = 3 and u.deleted_at is null
        order by u.id
        on conflict (tutor_id) do nothing;
      -- One refresher per tutor at a time; under read committed the statement after the
      -- lock sees what the transaction that held it committed, so the last writer wins with
      -- everything committed before it.
      perform 1 from tutor_search where tutor_id = any(ids) order by tutor_id for update;
      delete from tutor_search ts
        where ts.tutor_id = any(ids)
          and not exists (select 1 from users u where u.id = ts.tutor_id and u.role_id = 3 and u.deleted_at is null);
      update tutor_search ts set
        profile_complete = v.profile_complete,
        verified = v.verified,
        is_visible = v.is_visible,
        searchable = v.profile_complete and v.verified and v.is_visible,
        lat = v.lat,
        lng = v.lng,
        travel_distance_miles = v.travel_distance_miles,
        gender = v.gender,
        language_ids = v.language_ids,
        tutoring_experience_months = v.tutoring_experience_months,
        updated_at = now()
      from (
        select
          u.id as tutor_id,
          coalesce(
            pic.id is not null
            and vid.id is not null
            and btrim(coalesce(p.bio, '')) <> ''
            and exists (select 1 from addresses a where a.user_id = u.id)
            and exists (select 1 from mobile_numbers m where m.user_id = u.id),
            false) as profile_complete,
          (select count(*) from verifications v where v.user_id = u.id and v.status = 'PASS'
             and v.kind in ('identity', 'dbs', 'qualification')) = 3 as verified,
          coalesce(p.is_visible, false) as is_visible,
          l.lat, l.lng, l.travel_distance_miles,
          pd.gender,
          coalesce((select array_agg(ul.language_id order by ul.language_id) from user_languages ul where ul.user_id = u.id), '{}') as language_ids,
          p.tutoring_experience_months
        from users u
        left join profiles p on p.user_id = u.id
        left join files pic on pic.id = p.profile_picture_file_id and pic.deleted_at is null
        left join files vid on vid.id = p.profile_video_file_id and vid.deleted_at is null
        left join locations l on l.tutor_id = u.id
        left join personal_details pd on pd.user_id = u.id
        where u.id = any(ids)
      ) v
      where ts.tutor_id = v.tutor_id;
    end
    $fn$
  `.execute(db)

  // TG_ARGV[0]: the expression naming the affected user of a changed row "r".
  await sql`
    create function tutor_search_after_change() returns trigger language plpgsql as $fn$
    declare
      affected bigint[];
    begin
      if TG_OP = 'INSERT' then
        execute format('select array_agg(distinct k) from (select %s as k from new_rows r) s', TG_ARGV[0]) into affected;
      elsif TG_OP = 'DELETE' then
        execute format('select array_agg(distinct k) from (select %s as k from old_rows r) s', TG_ARGV[0]) into affected;
      else
        execute format('select array_agg(distinct k) from (select %1$s as k from new_rows r union select %1$s from old_rows r) s', TG_ARGV[0]) into affected;
      end if;
      perform tutor_search_refresh(array_remove(affected, null));
      return null;
    end
    $fn$
  `.execute(db)

  const watched: Array<[table: string, key: string, operations: string[]]> = [
    ['users', 'r.id', ['insert', 'update']],
    ['profiles', 'r.user_id', ['insert', 'update', 'delete']],
    ['addresses', 'r.user_id', ['insert', 'update', 'delete']],
    ['mobile_numbers', 'r.user_id', ['insert', 'update', 'delete']],
    ['verifications', 'r.user_id', ['insert', 'update', 'delete']],
    ['personal_details', 'r.user_id', ['insert', 'update', 'delete']],
    ['user_languages', 'r.user_id', ['insert', 'update', 'delete']],
    ['locations', 'r.tutor_id', ['insert', 'update', 'delete']],
    // A soft-deleted picture or video stops counting; a new file counts once a profile points at it.
    [
      'files',
      '(select p.user_id from profiles p where p.profile_picture_file_id = r.id or p.profile_video_file_id = r.id limit 1)',
      ['update'],
    ],
  ]
  for (const [table, key, operations] of watched) {
    for (const operation of operations) {
      const transition =
        operation === 'insert' ? 'new table as new_rows' : operation === 'delete' ? 'old table as old_rows' : 'old table as old_rows new table as new_rows'
      await sql
        .raw(
          `create trigger tutor_search_${operation} after ${operation} on ${table} referencing ${transition} ` +
            `for each statement execute function tutor_search_after_change('${key.replace(/'/g, "''")}')`,
        )
        .execute(db)
    }
  }

  // Tutors who exist already.
  await sql`select tutor_search_refresh(array(select id from users where role_id = 3))`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['users', 'profiles', 'addresses', 'mobile_numbers', 'verifications', 'personal_details', 'user_languages', 'locations', 'files']) {
    for (const operation of ['insert', 'update', 'delete']) {
      await sql.raw(`drop trigger if exists tutor_search_${operation} on ${table}`).execute(db)
    }
  }
  await sql`drop function if exists tutor_search_after_change()`.execute(db)
  await sql`drop function if exists tutor_search_refresh(bigint[])`.execute(db)
  await sql`drop index if exists teaches_tutor_available`.execute(db)
  await sql`drop index if exists profiles_picture_file`.execute(db)
  await sql`drop index if exists profiles_video_file`.execute(db)
  await db.schema.dropTable('tutor_search').ifExists().execute()
}
