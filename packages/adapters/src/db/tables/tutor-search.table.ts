import type { Generated, Selectable } from 'kysely'

/** Written only by the triggers of migration 2026_11_24_200000 (see there); read by search. */
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
  overall_rating: number | null
  updated_at: Generated<Date>
}
export type TutorSearchRow = Selectable<TutorSearchTable>
