/** Written only by the trigger of migration 2026_12_04_200000 (see there); read by search's online fast path. */
export interface TutorSearchOnlineTable {
  subject_id: number
  /** 0 Sunday .. 6 Saturday. */
  weekday: number
  tutor_id: number
  lat: number | null
  lng: number | null
  tutoring_experience_months: number | null
}
