-- Exact coordinates never leave the service (CONTRACT §14): search knows a tutor only by their
-- public point, the location rounded half up to two decimal places (the domain's `publicPoint`,
-- float for float). Rule 6 (`isOutOfTravelDistance` in packages/domain/src/search/eligibility.ts),
-- the distance shown and the reach cells are all measured from it.

create or replace function tutor_search_round_point() returns trigger language plpgsql as $fn$
begin
  new.lat := floor(new.lat * 100 + 0.5) / 100;
  new.lng := floor(new.lng * 100 + 0.5) / 100;
  return new;
end
$fn$;

-- Row triggers of one event fire in name order: this one before tutor_search_keys (search-keys.sql).
create or replace trigger tutor_search_a_public_point before insert or update on tutor_search for each row execute function tutor_search_round_point();
