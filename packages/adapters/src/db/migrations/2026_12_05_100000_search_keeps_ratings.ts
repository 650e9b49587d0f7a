import { sql, type Kysely } from 'kysely'

/**
 * `sort=rating` without a probe per match: `tutor_search` keeps each tutor's `overall_rating`
 * and `review_count` (0 without a review) from `tutor_ratings`, in the same transaction as
 * every write to it (a statement trigger, deferred in bulk like the others: migration
 * 2026_12_04_100000) and in `tutor_search_refresh`, which a bulk load calls at its end.
 * `tutor_search_online` copies them into its index too, so the commonest search sorts by rating
 * from an index-only scan. Before, search read `tutor_ratings` twice for every match: about
 * 7,800 index probes for the broad online search at 100,000 tutors.
 */
// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('tutor_search')
    .addColumn('overall_rating', 'double precision')
    .addColumn('review_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema
    .alterTable('tutor_search_online')
    .addColumn('overall_rating', 'double precision')
    .addColumn('review_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await sql.raw(refresh(true)).execute(db)

  // As tutor_search_refresh_subscribed: lock the rows in order, then read what committed before.
  await sql`
    create function tutor_search_refresh_rating(ids bigint[]) returns void language plpgsql as $fn$
    begin
      if ids is null or cardinality(ids) = 0 then
        return;
      end if;
      perform 1 from tutor_search where tutor_id = any(ids) order by tutor_id for update;
      update tutor_search ts set overall_rating = v.overall_rating, review_count = v.review_count, updated_at = now()
      from (
        select k.id, r.overall_rating, coalesce(r.review_count, 0) as review_count
        from unnest(ids) k(id) left join tutor_ratings r on r.tutor_id = k.id
      ) v
      where ts.tutor_id = v.id and (ts.overall_rating, ts.review_count) is distinct from (v.overall_rating, v.review_count);
    end
    $fn$
  `.execute(db)
  await sql`
    create function tutor_search_rating_after_change() returns trigger language plpgsql as $fn$
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
      perform tutor_search_refresh_rating(array_remove(affected, null));
      return null;
    end
    $fn$
  `.execute(db)
  for (const operation of ['insert', 'update', 'delete']) {
    const transition =
      operation === 'insert' ? 'new table as new_rows' : operation === 'delete' ? 'old table as old_rows' : 'old table as old_rows new table as new_rows'
    await sql
      .raw(
        `create trigger tutor_search_rating_${operation} after ${operation} on tutor_ratings referencing ${transition} ` +
          `for each statement execute function tutor_search_rating_after_change()`,
      )
      .execute(db)
  }

  await onlineCopies(db, ONLINE_COLUMNS)
  // Tutors who have ratings already; the online row trigger copies them on.
  await sql`
    update tutor_search ts set overall_rating = r.overall_rating, review_count = r.review_count
    from tutor_ratings r
    where r.tutor_id = ts.tutor_id and (ts.overall_rating, ts.review_count) is distinct from (r.overall_rating, r.review_count)
  `.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const operation of ['insert', 'update', 'delete']) {
    await sql.raw(`drop trigger if exists tutor_search_rating_${operation} on tutor_ratings`).execute(db)
  }
  await sql`drop function if exists tutor_search_rating_after_change()`.execute(db)
  await sql`drop function if exists tutor_search_refresh_rating(bigint[])`.execute(db)
  await sql.raw(refresh(false)).execute(db)
  await onlineCopies(db, ONLINE_COLUMNS.slice(0, 3))
  await db.schema.alterTable('tutor_search_online').dropColumn('overall_rating').dropColumn('review_count').execute()
  await db.schema.alterTable('tutor_search').dropColumn('overall_rating').dropColumn('review_count').execute()
}

/** The columns of `tutor_search` that `tutor_search_online` copies, in its index's INCLUDE. */
const ONLINE_COLUMNS = ['lat', 'lng', 'tutoring_experience_months', 'overall_rating', 'review_count']

/**
 * `tutor_search_online`'s row trigger and its index's INCLUDE, copying `columns` (migration
 * 2026_12_04_200000 copied the first three). The trigger still fires only when a copied
 * column, or what the rows are made of, changed.
 */
async function onlineCopies(db: Kysely<any>, columns: readonly string[]): Promise<void> {
  const list = columns.join(', ')
  await sql
    .raw(
      `create or replace function tutor_search_online_sync() returns trigger language plpgsql as $fn$
      begin
        -- A deleted tutor_search row takes its rows along (the foreign key cascades).
        if TG_OP = 'UPDATE' then
          delete from tutor_search_online where tutor_id = old.tutor_id;
        end if;
        insert into tutor_search_online (subject_id, weekday, tutor_id, ${list})
          select r.subject_id, r.weekday, new.tutor_id, ${columns.map((c) => `new.${c}`).join(', ')}
          from tutor_search_online_rows(new) r;
        return null;
      end
      $fn$`,
    )
    .execute(db)
  const made = ['searchable', 'subscribed', 'subject_ids', 'schedule_mask', ...columns]
  await sql`drop trigger if exists tutor_search_online_update on tutor_search`.execute(db)
  await sql
    .raw(
      `create trigger tutor_search_online_update after update on tutor_search for each row
      when ((${made.map((c) => `old.${c}`).join(', ')}) is distinct from (${made.map((c) => `new.${c}`).join(', ')}))
      execute function tutor_search_online_sync()`,
    )
    .execute(db)
  await sql
    .raw(
      `alter table tutor_search_online drop constraint tutor_search_online_pkey,
        add constraint tutor_search_online_pkey primary key (subject_id, weekday, tutor_id) include (${list})`,
    )
    .execute(db)
}

/** `tutor_search_refresh` as migration 2026_11_24_200000 wrote it, with the rating columns or without. */
function refresh(withRating: boolean): string {
  return `
    create or replace function tutor_search_refresh(ids bigint[]) returns void language plpgsql as $fn$
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
        ${withRating ? 'overall_rating = v.overall_rating, review_count = v.review_count,' : ''}
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
          ${withRating ? ', r.overall_rating, coalesce(r.review_count, 0) as review_count' : ''}
        from users u
        left join profiles p on p.user_id = u.id
        left join files pic on pic.id = p.profile_picture_file_id and pic.deleted_at is null
        left join files vid on vid.id = p.profile_video_file_id and vid.deleted_at is null
        left join locations l on l.tutor_id = u.id
        left join personal_details pd on pd.user_id = u.id
        ${withRating ? 'left join tutor_ratings r on r.tutor_id = u.id' : ''}
        where u.id = any(ids)
      ) v
      where ts.tutor_id = v.tutor_id;
    end
    $fn$`
}
