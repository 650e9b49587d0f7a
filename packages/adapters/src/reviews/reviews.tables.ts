import type { ReviewsTable } from './reviews.table'
import type { TutorRatingsTable } from './tutor-ratings.table'

/** The reviews context's tables, as Kysely sees them; `Database` joins every context's. */
export interface ReviewsTables {
  reviews: ReviewsTable
  tutor_ratings: TutorRatingsTable
}
