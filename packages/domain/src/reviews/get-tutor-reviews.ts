import { err, ok, ResultAsync } from 'neverthrow'
import { notFound, type NotFound } from '../shared'
import type { ReviewsDeps, ReviewSummary } from './ports'
import { endOfLondonDay } from './review-summary-cache'

/**
 * `GET /api/tutors/{id}/review`: the tutor's review summary, computed once and then served
 * from the cache until the end of the day in London (SPEC "Limits").
 */
export function getTutorReviews(
  deps: ReviewsDeps,
  tutorId: number,
): ResultAsync<{ summary: ReviewSummary; expiresAt: Date }, NotFound> {
  return new ResultAsync(
    (async () => {
      const now = deps.clock.now()
      const expiresAt = endOfLondonDay(now)
      const cached = deps.reviewCache.get(tutorId, now)
      if (cached) return ok({ summary: cached, expiresAt })
      if (!(await deps.uow.repos.reviews.isTutor(tutorId))) return err(notFound('tutor'))
      const summary = await deps.uow.repos.reviews.summary(tutorId)
      deps.reviewCache.set(tutorId, summary, expiresAt)
      return ok({ summary, expiresAt })
    })(),
  )
}
