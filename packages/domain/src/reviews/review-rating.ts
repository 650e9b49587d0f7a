/** A tutor's reviews as totals: how many, and each criterion's marks summed. */
export type ReviewTotals = { count: number; knowledge: number; communication: number; punctuality: number }

/** What a tutor's reviews come to, kept on the tutor with each review written. */
export type TutorRating = { reviewCount: number; overallRating: number | null }

const twoPlaces = (n: number): number => Math.round(n * 100) / 100

/** The mean mark of one criterion over `count` reviews, to two places; null with none. */
export const criterionMean = (total: number, count: number): number | null => (count === 0 ? null : twoPlaces(total / count))

/**
 * A tutor's overall rating: the mean over their reviews of each review's mean of the three
 * criteria (knowledge, communication, punctuality), to two places; null with no review.
 */
export const overallRating = (totals: ReviewTotals): number | null =>
  criterionMean((totals.knowledge + totals.communication + totals.punctuality) / 3, totals.count)

export const tutorRating = (totals: ReviewTotals): TutorRating => ({ reviewCount: totals.count, overallRating: overallRating(totals) })
