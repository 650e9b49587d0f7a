import type { Generated } from 'kysely'

/** Written by the review use case with each review (migration 2026_12_02_100000). */
export interface TutorRatingsTable {
  tutor_id: number
  review_count: Generated<number>
  overall_rating: number | null
  updated_at: Generated<Date>
}
