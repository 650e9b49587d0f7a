-- A bulk load (the demo seed) defers `tutor_search`'s upkeep to one refresh of the tutors it
-- wrote, at the end of its own transaction: with `tutoring.search_refresh` set to `deferred`
-- (`set local`) the statement triggers on the source tables do nothing. Every other writer
-- leaves the setting alone and is kept by the triggers.

create or replace function tutor_search_refresh_deferred() returns boolean language sql stable as $fn$
  select coalesce(current_setting('tutoring.search_refresh', true), '') = 'deferred'
$fn$;
