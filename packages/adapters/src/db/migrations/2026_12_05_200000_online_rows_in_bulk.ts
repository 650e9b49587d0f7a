import { sql, type Kysely } from 'kysely'

/**
 * A bulk load (the demo seed, `tutoring.search_refresh` = `deferred`: migration
 * 2026_12_04_100000) writes `tutor_search_online` once per chunk, set-based, through
 * `tutor_search_online_refresh(ids)`, instead of through the row trigger on `tutor_search`,
 * which deleted and re-inserted a tutor's rows each time a refresh changed the row (up to
 * three times per tutor). Measured at 100,000 tutors: a chunk's refresh 750-1,000 ms with the
 * trigger, 500 ms without it and with the set-based insert. Every other writer is kept by the
 * trigger, as before.
 */
// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(sync(true)).execute(db)
  await sql`
    create function tutor_search_online_refresh(ids bigint[]) returns void language plpgsql as $fn$
    begin
      if ids is null or cardinality(ids) = 0 then
        return;
      end if;
      delete from tutor_search_online where tutor_id = any(ids);
      insert into tutor_search_online (subject_id, weekday, tutor_id, ${sql.raw(COPIED.join(', '))})
        select r.subject_id, r.weekday, ts.tutor_id, ${sql.raw(COPIED.map((c) => `ts.${c}`).join(', '))}
        from tutor_search ts cross join lateral tutor_search_online_rows(ts) r
        where ts.tutor_id = any(ids);
    end
    $fn$
  `.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists tutor_search_online_refresh(bigint[])`.execute(db)
  await sql.raw(sync(false)).execute(db)
}

/** The columns of `tutor_search` its online rows copy (migration 2026_12_05_100000). */
const COPIED = ['lat', 'lng', 'tutoring_experience_months', 'overall_rating', 'review_count']

/** The online row trigger's function as migration 2026_12_05_100000 wrote it, with the bulk guard or without. */
function sync(guarded: boolean): string {
  return `
    create or replace function tutor_search_online_sync() returns trigger language plpgsql as $fn$
    begin
      ${guarded ? '-- A bulk load writes the rows itself, once, with tutor_search_online_refresh.\n      if tutor_search_refresh_deferred() then return null; end if;' : ''}
      -- A deleted tutor_search row takes its rows along (the foreign key cascades).
      if TG_OP = 'UPDATE' then
        delete from tutor_search_online where tutor_id = old.tutor_id;
      end if;
      insert into tutor_search_online (subject_id, weekday, tutor_id, ${COPIED.join(', ')})
        select r.subject_id, r.weekday, new.tutor_id, ${COPIED.map((c) => `new.${c}`).join(', ')}
        from tutor_search_online_rows(new) r;
      return null;
    end
    $fn$`
}
