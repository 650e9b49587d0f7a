-- `tutor_search`: one row per live tutor with what search can know ahead of a query, kept by
-- triggers in the same transaction as every change to the records it is read from. This file:
-- the row's facts from the tutor's own records, which hold the domain's search rules 1-3
-- (packages/domain/src/search/eligibility.ts, `searchEligibility`):
--   rule 1, `profileReasons`: picture and video (live files), a bio, an address, a mobile number;
--   rule 2, `verificationReasons`: identity, DBS and qualification checks all PASS;
--   rule 3, `isVisible`: the profile is visible;
-- `searchable` is the three together. Also the location (rule 6's point and travel distance),
-- gender, languages, experience, the rating copied from `tutor_ratings` (see rating.sql) and the
-- holidays (`away`, see holidays.sql).

-- Recomputes the rows of the given users: inserted or updated for live tutors, deleted otherwise.
create or replace function tutor_search_refresh(ids bigint[]) returns void language plpgsql as $fn$
begin
  if ids is null or cardinality(ids) = 0 then
    return;
  end if;
  insert into tutor_search (tutor_id)
    select u.id from users u
    where u.id = any(ids) and u.role_id = 3 and u.deleted_at is null
    order by u.id
    on conflict (tutor_id) do nothing;
  -- One refresher per tutor at a time; under read committed the statement after the
  -- lock sees what the transaction that held it committed, so the last writer wins with
  -- everything committed before it.
  perform 1 from tutor_search where tutor_id = any(ids) order by tutor_id for update;
  delete from tutor_search ts
    where ts.tutor_id = any(ids)
      and not exists (select 1 from users u where u.id = ts.tutor_id and u.role_id = 3 and u.deleted_at is null);
  update tutor_search ts set
    profile_complete = v.profile_complete,
    verified = v.verified,
    is_visible = v.is_visible,
    searchable = v.profile_complete and v.verified and v.is_visible,
    lat = v.lat,
    lng = v.lng,
    travel_distance_miles = v.travel_distance_miles,
    gender = v.gender,
    language_ids = v.language_ids,
    tutoring_experience_months = v.tutoring_experience_months,
    overall_rating = v.overall_rating,
    review_count = v.review_count,
    away = v.away,
    updated_at = now()
  from (
    select
      u.id as tutor_id,
      coalesce(
        pic.id is not null
        and vid.id is not null
        and btrim(coalesce(p.bio, '')) <> ''
        and exists (select 1 from addresses a where a.user_id = u.id)
        and exists (select 1 from mobile_numbers m where m.user_id = u.id),
        false) as profile_complete,
      (select count(*) from verifications v where v.user_id = u.id and v.status = 'PASS'
         and v.kind in ('identity', 'dbs', 'qualification')) = 3 as verified,
      coalesce(p.is_visible, false) as is_visible,
      l.lat, l.lng, l.travel_distance_miles,
      pd.gender,
      coalesce((select array_agg(ul.language_id order by ul.language_id) from user_languages ul where ul.user_id = u.id), '{}') as language_ids,
      p.tutoring_experience_months,
      r.overall_rating, coalesce(r.review_count, 0) as review_count,
      tutor_search_away(u.id) as away
    from users u
    left join profiles p on p.user_id = u.id
    left join files pic on pic.id = p.profile_picture_file_id and pic.deleted_at is null
    left join files vid on vid.id = p.profile_video_file_id and vid.deleted_at is null
    left join locations l on l.tutor_id = u.id
    left join personal_details pd on pd.user_id = u.id
    left join tutor_ratings r on r.tutor_id = u.id
    where u.id = any(ids)
  ) v
  where ts.tutor_id = v.tutor_id;
end
$fn$;

create or replace trigger tutor_search_insert after insert on users referencing new table as new_rows for each statement execute function tutor_search_after_change('r.id', 'tutor_search_refresh');
create or replace trigger tutor_search_update after update on users referencing old table as old_rows new table as new_rows for each statement execute function tutor_search_after_change('r.id', 'tutor_search_refresh');

create or replace trigger tutor_search_insert after insert on profiles referencing new table as new_rows for each statement execute function tutor_search_after_change('r.user_id', 'tutor_search_refresh');
create or replace trigger tutor_search_update after update on profiles referencing old table as old_rows new table as new_rows for each statement execute function tutor_search_after_change('r.user_id', 'tutor_search_refresh');
create or replace trigger tutor_search_delete after delete on profiles referencing old table as old_rows for each statement execute function tutor_search_after_change('r.user_id', 'tutor_search_refresh');

create or replace trigger tutor_search_insert after insert on addresses referencing new table as new_rows for each statement execute function tutor_search_after_change('r.user_id', 'tutor_search_refresh');
create or replace trigger tutor_search_update after update on addresses referencing old table as old_rows new table as new_rows for each statement execute function tutor_search_after_change('r.user_id', 'tutor_search_refresh');
create or replace trigger tutor_search_delete after delete on addresses referencing old table as old_rows for each statement execute function tutor_search_after_change('r.user_id', 'tutor_search_refresh');

create or replace trigger tutor_search_insert after insert on mobile_numbers referencing new table as new_rows for each statement execute function tutor_search_after_change('r.user_id', 'tutor_search_refresh');
create or replace trigger tutor_search_update after update on mobile_numbers referencing old table as old_rows new table as new_rows for each statement execute function tutor_search_after_change('r.user_id', 'tutor_search_refresh');
create or replace trigger tutor_search_delete after delete on mobile_numbers referencing old table as old_rows for each statement execute function tutor_search_after_change('r.user_id', 'tutor_search_refresh');

create or replace trigger tutor_search_insert after insert on verifications referencing new table as new_rows for each statement execute function tutor_search_after_change('r.user_id', 'tutor_search_refresh');
create or replace trigger tutor_search_update after update on verifications referencing old table as old_rows new table as new_rows for each statement execute function tutor_search_after_change('r.user_id', 'tutor_search_refresh');
create or replace trigger tutor_search_delete after delete on verifications referencing old table as old_rows for each statement execute function tutor_search_after_change('r.user_id', 'tutor_search_refresh');

create or replace trigger tutor_search_insert after insert on personal_details referencing new table as new_rows for each statement execute function tutor_search_after_change('r.user_id', 'tutor_search_refresh');
create or replace trigger tutor_search_update after update on personal_details referencing old table as old_rows new table as new_rows for each statement execute function tutor_search_after_change('r.user_id', 'tutor_search_refresh');
create or replace trigger tutor_search_delete after delete on personal_details referencing old table as old_rows for each statement execute function tutor_search_after_change('r.user_id', 'tutor_search_refresh');

create or replace trigger tutor_search_insert after insert on user_languages referencing new table as new_rows for each statement execute function tutor_search_after_change('r.user_id', 'tutor_search_refresh');
create or replace trigger tutor_search_update after update on user_languages referencing old table as old_rows new table as new_rows for each statement execute function tutor_search_after_change('r.user_id', 'tutor_search_refresh');
create or replace trigger tutor_search_delete after delete on user_languages referencing old table as old_rows for each statement execute function tutor_search_after_change('r.user_id', 'tutor_search_refresh');

create or replace trigger tutor_search_insert after insert on locations referencing new table as new_rows for each statement execute function tutor_search_after_change('r.tutor_id', 'tutor_search_refresh');
create or replace trigger tutor_search_update after update on locations referencing old table as old_rows new table as new_rows for each statement execute function tutor_search_after_change('r.tutor_id', 'tutor_search_refresh');
create or replace trigger tutor_search_delete after delete on locations referencing old table as old_rows for each statement execute function tutor_search_after_change('r.tutor_id', 'tutor_search_refresh');

-- A soft-deleted picture or video stops counting; a new file counts once a profile points at it.
create or replace trigger tutor_search_update after update on files referencing old table as old_rows new table as new_rows for each statement
  execute function tutor_search_after_change('(select p.user_id from profiles p where p.profile_picture_file_id = r.id or p.profile_video_file_id = r.id limit 1)', 'tutor_search_refresh');
