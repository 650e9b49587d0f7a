-- `sort=rating` without a probe per match: `tutor_search` keeps each tutor's `overall_rating`
-- and `review_count` (0 without a review) from `tutor_ratings` (which the review use case
-- writes: the domain's `overallRating`), in the same transaction as every write to it, and in
-- `tutor_search_refresh` (tutor-records.sql), which a bulk load calls at its end.

-- As tutor_search_refresh_subscribed: lock the rows in order, then read what committed before.
create or replace function tutor_search_refresh_rating(ids bigint[]) returns void language plpgsql as $fn$
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
$fn$;

create or replace function tutor_search_rating_after_change() returns trigger language plpgsql as $fn$
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
$fn$;

create or replace trigger tutor_search_rating_insert after insert on tutor_ratings referencing new table as new_rows for each statement execute function tutor_search_rating_after_change();
create or replace trigger tutor_search_rating_update after update on tutor_ratings referencing old table as old_rows new table as new_rows for each statement execute function tutor_search_rating_after_change();
create or replace trigger tutor_search_rating_delete after delete on tutor_ratings referencing old table as old_rows for each statement execute function tutor_search_rating_after_change();
