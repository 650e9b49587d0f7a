export { createReview } from './create-review'
export { getTutorReviews } from './get-tutor-reviews'
export type { ReviewDraft, ReviewRepository, ReviewsDeps, ReviewsRepos, ReviewSummary, ReviewSummaryCache } from './ports'
export { criterionMean, overallRating, type ReviewTotals, type TutorRating } from './review-rating'
