-- Rule 8 (CONTRACT §14; `isSubscriptionInactive` in packages/domain/src/search/eligibility.ts):
-- a tutor without a valid subscription (trialing or active) is not searchable.
-- `tutor_search.subscribed` holds it ahead of the query, kept by triggers in the same
-- transaction as every change to `subscriptions`, and read when a row is inserted (a tutor who
-- becomes one again).

create or replace function tutor_search_is_subscribed(tutor bigint) returns boolean language sql stable as $fn$
  select exists (select 1 from subscriptions s where s.user_id = tutor and s.deleted_at is null and s.status in ('trialing', 'active'))
$fn$;

create or replace function tutor_search_subscribed_on_insert() returns trigger language plpgsql as $fn$
begin
  new.subscribed := tutor_search_is_subscribed(new.tutor_id);
  return new;
end
$fn$;

create or replace trigger tutor_search_subscribed before insert on tutor_search for each row execute function tutor_search_subscribed_on_insert();

-- As tutor_search_refresh: lock the rows in order, then read what committed before.
create or replace function tutor_search_refresh_subscribed(ids bigint[]) returns void language plpgsql as $fn$
begin
  if ids is null or cardinality(ids) = 0 then
    return;
  end if;
  perform 1 from tutor_search where tutor_id = any(ids) order by tutor_id for update;
  update tutor_search ts set subscribed = v.subscribed, updated_at = now()
  from (select id, tutor_search_is_subscribed(id) as subscribed from unnest(ids) id) v
  where ts.tutor_id = v.id and ts.subscribed <> v.subscribed;
end
$fn$;

create or replace trigger tutor_search_subscription_insert after insert on subscriptions referencing new table as new_rows for each statement execute function tutor_search_after_change('r.user_id', 'tutor_search_refresh_subscribed');
create or replace trigger tutor_search_subscription_update after update on subscriptions referencing old table as old_rows new table as new_rows for each statement execute function tutor_search_after_change('r.user_id', 'tutor_search_refresh_subscribed');
create or replace trigger tutor_search_subscription_delete after delete on subscriptions referencing old table as old_rows for each statement execute function tutor_search_after_change('r.user_id', 'tutor_search_refresh_subscribed');

-- This file's own trigger function, from before tutor_search_after_change (bulk-deferral.sql) served them all.
drop function if exists tutor_search_subscription_after_change();
