/** What `sort=rating` reads of a tutor: their id and what their reviews come to. */
export type RatedTutor = { tutorId: number; overallRating: number | null; reviewCount: number }

/**
 * `sort=rating` (CONTRACT §5): the higher overall rating first, tutors without one last;
 * then more reviews first; then the lower id, so the order is total and pages never overlap.
 * The repository's SQL sorts by the same three keys.
 */
export function compareByRating(a: RatedTutor, b: RatedTutor): number {
  if (a.overallRating !== b.overallRating) {
    if (a.overallRating === null) return 1
    if (b.overallRating === null) return -1
    return b.overallRating - a.overallRating
  }
  return b.reviewCount - a.reviewCount || a.tutorId - b.tutorId
}
