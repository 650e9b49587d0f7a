import { HOUR_MS } from '../shared'

/** One of a tutor's lessons that was not cancelled: what hours taught are counted from. */
export type TaughtLesson = { start: Date; finish: Date }

/** A tutor's reviews as totals: how many, and each criterion's marks summed. */
export type ReviewTotals = { count: number; knowledge: number; communication: number; punctuality: number }

const twoPlaces = (n: number): number => Math.round(n * 100) / 100

/**
 * Hours taught: the length of every lesson that has finished by `now` and was not
 * cancelled, in hours to two places. A lesson still running or yet to come counts later.
 */
export function hoursTaught(lessons: readonly TaughtLesson[], now: Date): number {
  const ms = lessons.reduce((sum, l) => (l.finish.getTime() <= now.getTime() ? sum + (l.finish.getTime() - l.start.getTime()) : sum), 0)
  return twoPlaces(ms / HOUR_MS)
}

/** The mean mark of one criterion over `count` reviews, to two places; null with none. */
export const criterionMean = (total: number, count: number): number | null => (count === 0 ? null : twoPlaces(total / count))

/**
 * A tutor's overall rating: the mean over their reviews of each review's mean of the three
 * criteria (knowledge, communication, punctuality), to two places; null with no review.
 */
export const overallRating = (totals: ReviewTotals): number | null =>
  criterionMean((totals.knowledge + totals.communication + totals.punctuality) / 3, totals.count)
