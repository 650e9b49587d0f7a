/** Written only by the triggers of `search/sql/in-person-rows.sql`; read by search's in-person path. */
export interface TutorSearchInPersonTable {
  subject_id: number
  tutor_id: number
  /** The tutor's travel box, shifted 1000 degrees of longitude per subject id (`tutor_search_reach_box`). */
  reach: string
  schedule_mask: number
  lat: number
  lng: number
  travel_distance_miles: number
  tutoring_experience_months: number | null
  overall_rating: number | null
  review_count: number
  /** The tutor's holidays (a datemultirange, as text; null without any): search/sql/holidays.sql. */
  away: string | null
}
