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

create or replace trigger tutor_search_rating_insert after insert on tutor_ratings referencing new table as new_rows for each statement execute function tutor_search_after_change('r.tutor_id', 'tutor_search_refresh_rating');
create or replace trigger tutor_search_rating_update after update on tutor_ratings referencing old table as old_rows new table as new_rows for each statement execute function tutor_search_after_change('r.tutor_id', 'tutor_search_refresh_rating');
create or replace trigger tutor_search_rating_delete after delete on tutor_ratings referencing old table as old_rows for each statement execute function tutor_search_after_change('r.tutor_id', 'tutor_search_refresh_rating');

-- This file's own trigger function, from before tutor_search_after_change (bulk-deferral.sql) served them all.
drop function if exists tutor_search_rating_after_change();
