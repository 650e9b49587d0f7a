import { err, ok, ResultAsync } from 'neverthrow'
import { lessonNotFinished, type LessonNotFinished } from '../lesson'
import { fieldError, forbidden, notFound, type Actor, type Forbidden, type NotFound, type ValidationFailed } from '../shared'
import type { ReviewDraft, ReviewsDeps } from './ports'
import { tutorRating } from './review-rating'

/**
 * `POST /api/tutors/{id}/review`: someone who had a lesson with the tutor reviews them once.
 * CONTRACT §14: it needs a lesson of the reviewer's that has finished and whose payment was
 * captured (booking PAYED); a lesson paid later, or not yet over, does not count, so a
 * booking cancelled and refunded before its lesson never carries a review. No paid or
 * authorised lesson at all is 403; one not finished and captured yet is 422. The tutor's
 * stored rating (public profile, `sort=rating`) changes with the review; the cached summary
 * picks it up at the end of the day.
 */
export function createReview(
  deps: Pick<ReviewsDeps, 'uow' | 'clock'>,
  actor: Actor,
  input: { tutorId: number; review: ReviewDraft },
): ResultAsync<{ id: number }, NotFound | Forbidden | ValidationFailed | LessonNotFinished> {
  return new ResultAsync(
    deps.uow.run(async (repos) => {
      if (!(await repos.reviews.isTutor(input.tutorId))) return err(notFound('tutor'))
      const lessons = await repos.bookings.lessonsWith(input.tutorId, actor.id)
      if (lessons.length === 0) return err(forbidden('Only someone who had a lesson with this tutor may review them.'))
      const now = deps.clock.now()
      if (!lessons.some((l) => l.bookingState === 'PAYED' && l.finish.getTime() <= now.getTime())) {
        const earliest = lessons.reduce((a, b) => (b.finish.getTime() < a.finish.getTime() ? b : a))
        return err(lessonNotFinished(earliest.finish))
      }
      await repos.reviews.lockRating(input.tutorId)
      const created = await repos.reviews.insert(input.tutorId, actor.id, input.review)
      if (!created) return err(fieldError('tutor_id', 'you have already reviewed this tutor'))
      await repos.reviews.saveRating(input.tutorId, tutorRating(await repos.reviews.totals(input.tutorId)))
      await repos.integrationEvents.record({ type: 'review.created', subject: { kind: 'review', id: created.id }, partyIds: [input.tutorId, actor.id], at: now })
      return ok(created)
    }),
  )
}
