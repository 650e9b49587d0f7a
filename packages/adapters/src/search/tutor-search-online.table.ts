/** Written only by the triggers of `search/sql/online-rows.sql`; read by search's online fast path. */
export interface TutorSearchOnlineTable {
  subject_id: number
  /** 0 Sunday .. 6 Saturday. */
  weekday: number
  tutor_id: number
  lat: number | null
  lng: number | null
  tutoring_experience_months: number | null
  overall_rating: number | null
  review_count: number
  /** The tutor's holidays (a datemultirange, as text; null without any): search/sql/holidays.sql. */
  away: string | null
}
