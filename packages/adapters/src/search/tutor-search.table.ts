import type { Generated, Selectable } from 'kysely'

/** Written only by the triggers and functions of `search/sql/*.sql` (the live definitions; the migrations made the columns); read by search. */
export interface TutorSearchTable {
  tutor_id: number
  profile_complete: Generated<boolean>
  verified: Generated<boolean>
  is_visible: Generated<boolean>
  searchable: Generated<boolean>
  lat: number | null
  lng: number | null
  travel_distance_miles: number | null
  gender: 'male' | 'female' | null
  language_ids: Generated<number[]>
  tutoring_experience_months: number | null
  updated_at: Generated<Date>
  /** Bit `7 * type + day` (types 0 tutors_home, 1 students_home, 2 online; days 0 Sunday .. 6). */
  schedule_mask: Generated<number>
  subject_ids: Generated<number[]>
  search_keys: Generated<number[]>
  /** Search rule 8: a live subscription trialing or active. */
  subscribed: Generated<boolean>
  /** Copied from `tutor_ratings` for `sort=rating`; null and 0 without a review. */
  overall_rating: number | null
  review_count: Generated<number>
  /** The tutor's holidays (a datemultirange, as text; null without any): search/sql/holidays.sql. */
  away: string | null
}
export type TutorSearchRow = Selectable<TutorSearchTable>
