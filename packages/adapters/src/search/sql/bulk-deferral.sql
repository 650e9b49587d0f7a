-- The statement triggers that keep `tutor_search` from its source tables (every file here), and
-- their deferral: a bulk load (the demo seed) defers the upkeep to one refresh of the tutors it
-- wrote, at the end of its own transaction: with `tutoring.search_refresh` set to `deferred`
-- (`set local`) the statement triggers on the source tables do nothing. Every other writer
-- leaves the setting alone and is kept by the triggers. Applied first (files go in name order).

create or replace function tutor_search_refresh_deferred() returns boolean language sql stable as $fn$
  select coalesce(current_setting('tutoring.search_refresh', true), '') = 'deferred'
$fn$;

-- The statement triggers' one function: with transition tables, a statement writing a thousand
-- rows refreshes each affected tutor once, and a deferred bulk load is left alone.
-- TG_ARGV[0]: the expression naming the tutor of a changed row "r"; TG_ARGV[1]: the refresh
-- taking their ids (`tutor_search_refresh` when absent, as the first triggers were made).
create or replace function tutor_search_after_change() returns trigger language plpgsql as $fn$
declare
  affected bigint[];
begin
  if tutor_search_refresh_deferred() then return null; end if;
  if TG_OP = 'INSERT' then
    execute format('select array_agg(distinct k) from (select %s as k from new_rows r) s', TG_ARGV[0]) into affected;
  elsif TG_OP = 'DELETE' then
    execute format('select array_agg(distinct k) from (select %s as k from old_rows r) s', TG_ARGV[0]) into affected;
  else
    execute format('select array_agg(distinct k) from (select %1$s as k from new_rows r union select %1$s from old_rows r) s', TG_ARGV[0]) into affected;
  end if;
  execute format('select %I($1)', coalesce(TG_ARGV[1], 'tutor_search_refresh')) using array_remove(affected, null);
  return null;
end
$fn$;
