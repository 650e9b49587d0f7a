import { sql, type Kysely } from 'kysely'

/**
 * Exact coordinates never leave the service (CONTRACT §14): search knows a tutor only by
 * their public point, the location rounded half up to two decimal places (about 0.7 by 0.4
 * miles; the domain's `publicPoint`, float for float). Rule 6, the distance shown and the
 * reach cells are all measured from it, so three searches from chosen points, or a searcher
 * walking a tutor's travel-distance circle, find that point at best, never the home.
 * A trigger named to fire before `tutor_search_keys` rounds every written row.
 */
// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function tutor_search_round_point() returns trigger language plpgsql as $fn$
    begin
      new.lat := floor(new.lat * 100 + 0.5) / 100;
      new.lng := floor(new.lng * 100 + 0.5) / 100;
      return new;
    end
    $fn$
  `.execute(db)
  // Row triggers of one event fire in name order: this one before tutor_search_keys.
  await sql`create trigger tutor_search_a_public_point before insert or update on tutor_search for each row execute function tutor_search_round_point()`.execute(db)
  // Rows that exist already: rounded by the trigger, their keys recomputed by tutor_search_keys.
  await sql`update tutor_search set lat = lat, lng = lng where lat is not null or lng is not null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists tutor_search_a_public_point on tutor_search`.execute(db)
  await sql`drop function if exists tutor_search_round_point()`.execute(db)
  // The exact points come back with each tutor's next refresh.
  await sql`select tutor_search_refresh(array(select tutor_id from tutor_search))`.execute(db)
}
