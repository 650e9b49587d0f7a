import { sql, type Kysely } from 'kysely'

/**
 * Search rule 8 (CONTRACT §14): a tutor without a valid subscription (trialing or active) is
 * not searchable. `tutor_search.subscribed` holds it ahead of the query, kept like the rest
 * of the table by triggers in the same transaction as every change to `subscriptions` (the
 * webhook, registration's trial, tests writing rows directly), and read when a row is
 * inserted (a tutor who becomes one again). Search adds `ts.subscribed` to `ts.searchable`.
 */
// Frozen in time: migrations never import the app's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tutor_search').addColumn('subscribed', 'boolean', (c) => c.notNull().defaultTo(false)).execute()

  await sql`
    create function tutor_search_is_subscribed(tutor bigint) returns boolean language sql stable as $fn$
      select exists (select 1 from subscriptions s where s.user_id = tutor and s.deleted_at is null and s.status in ('trialing', 'active'))
    $fn$
  `.execute(db)
  await sql`
    create function tutor_search_subscribed_on_insert() returns trigger language plpgsql as $fn$
    begin
      new.subscribed := tutor_search_is_subscribed(new.tutor_id);
      return new;
    end
    $fn$
  `.execute(db)
  await sql`create trigger tutor_search_subscribed before insert on tutor_search for each row execute function tutor_search_subscribed_on_insert()`.execute(db)

  // As tutor_search_refresh: lock the rows in order, then read what committed before.
  await sql`
    create function tutor_search_refresh_subscribed(ids bigint[]) returns void language plpgsql as $fn$
    begin
      if ids is null or cardinality(ids) = 0 then
        return;
      end if;
      perform 1 from tutor_search where tutor_id = any(ids) order by tutor_id for update;
      update tutor_search ts set subscribed = v.subscribed, updated_at = now()
      from (select id, tutor_search_is_subscribed(id) as subscribed from unnest(ids) id) v
      where ts.tutor_id = v.id and ts.subscribed <> v.subscribed;
    end
    $fn$
  `.execute(db)
  await sql`
    create function tutor_search_subscription_after_change() returns trigger language plpgsql as $fn$
    declare
      affected bigint[];
    begin
      if TG_OP = 'INSERT' then
        select array_agg(distinct r.user_id) into affected from new_rows r;
      elsif TG_OP = 'DELETE' then
        select array_agg(distinct r.user_id) into affected from old_rows r;
      else
        select array_agg(distinct k) into affected from (select r.user_id as k from new_rows r union select r.user_id from old_rows r) s;
      end if;
      perform tutor_search_refresh_subscribed(array_remove(affected, null));
      return null;
    end
    $fn$
  `.execute(db)
  for (const operation of ['insert', 'update', 'delete']) {
    const transition =
      operation === 'insert' ? 'new table as new_rows' : operation === 'delete' ? 'old table as old_rows' : 'old table as old_rows new table as new_rows'
    await sql
      .raw(
        `create trigger tutor_search_subscription_${operation} after ${operation} on subscriptions referencing ${transition} ` +
          `for each statement execute function tutor_search_subscription_after_change()`,
      )
      .execute(db)
  }

  // Tutors who exist already.
  await sql`update tutor_search set subscribed = tutor_search_is_subscribed(tutor_id)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const operation of ['insert', 'update', 'delete']) {
    await sql.raw(`drop trigger if exists tutor_search_subscription_${operation} on subscriptions`).execute(db)
  }
  await sql`drop trigger if exists tutor_search_subscribed on tutor_search`.execute(db)
  await sql`drop function if exists tutor_search_subscription_after_change()`.execute(db)
  await sql`drop function if exists tutor_search_refresh_subscribed(bigint[])`.execute(db)
  await sql`drop function if exists tutor_search_subscribed_on_insert()`.execute(db)
  await sql`drop function if exists tutor_search_is_subscribed(bigint)`.execute(db)
  await db.schema.alterTable('tutor_search').dropColumn('subscribed').execute()
}
