import { sql, type Kysely } from 'kysely'

/**
 * A bulk load (the demo seed) may defer `tutor_search`'s upkeep to one refresh of the tutors
 * it wrote, at the end of its own transaction: with `tutoring.search_refresh` set to
 * `deferred` (`set local`, so only for that transaction) the statement triggers on the source
 * tables do nothing. Without it every chunk refreshed the same tutors once per table written,
 * a dozen times. Every other writer leaves the setting alone and is kept as before.
 */
// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function tutor_search_refresh_deferred() returns boolean language sql stable as $fn$
      select coalesce(current_setting('tutoring.search_refresh', true), '') = 'deferred'
    $fn$
  `.execute(db)
  for (const [name, refresh, key] of TRIGGERS) await sql.raw(afterChange(name, refresh, key, true)).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name, refresh, key] of TRIGGERS) await sql.raw(afterChange(name, refresh, key, false)).execute(db)
  await sql`drop function if exists tutor_search_refresh_deferred()`.execute(db)
}

/** Trigger function, the refresh it calls, and the expression naming a changed row's tutor (null: TG_ARGV[0]). */
const TRIGGERS: Array<[string, string, string | null]> = [
  ['tutor_search_after_change', 'tutor_search_refresh', null],
  ['tutor_search_offer_after_change', 'tutor_search_refresh_offer', 'r.tutor_id'],
  ['tutor_search_subscription_after_change', 'tutor_search_refresh_subscribed', 'r.user_id'],
]

/** The three statement triggers' functions as earlier migrations wrote them, with the guard or without. */
function afterChange(name: string, refresh: string, key: string | null, guarded: boolean): string {
  const collect = (rows: string) =>
    key === null
      ? `execute format('select array_agg(distinct k) from (${rows}) s', TG_ARGV[0]) into affected;`
      : `select array_agg(distinct k) into affected from (${rows.replace(/%1\$s|%s/g, key)}) s;`
  return `
    create or replace function ${name}() returns trigger language plpgsql as $fn$
    declare
      affected bigint[];
    begin
      ${guarded ? 'if tutor_search_refresh_deferred() then return null; end if;' : ''}
      if TG_OP = 'INSERT' then
        ${collect('select %s as k from new_rows r')}
      elsif TG_OP = 'DELETE' then
        ${collect('select %s as k from old_rows r')}
      else
        ${collect('select %1$s as k from new_rows r union select %1$s from old_rows r')}
      end if;
      perform ${refresh}(array_remove(affected, null));
      return null;
    end
    $fn$`
}
