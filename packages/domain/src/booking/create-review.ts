import { err, ok, ResultAsync } from 'neverthrow'
import { fieldError, forbidden, notFound, type Actor, type Forbidden, type NotFound, type ValidationFailed } from '../shared'
import type { BookingDeps, ReviewDraft } from './ports'
import { tutorRating } from './review-rating'

/**
 * `POST /api/tutors/{id}/review`: someone who had a lesson with the tutor (a paid or
 * authorised booking whose lesson was not cancelled) reviews them once. The tutor's stored
 * rating (public profile, `sort=rating`) changes with the review; the cached summary picks it
 * up at the end of the day.
 */
export function createReview(
  deps: Pick<BookingDeps, 'uow'>,
  actor: Actor,
  input: { tutorId: number; review: ReviewDraft },
): ResultAsync<{ id: number }, NotFound | Forbidden | ValidationFailed> {
  return new ResultAsync(
    deps.uow.run(async (repos) => {
      if (!(await repos.reviews.isTutor(input.tutorId))) return err(notFound('tutor'))
      if (!(await repos.bookings.hadLessonWith(input.tutorId, actor.id))) {
        return err(forbidden('Only someone who had a lesson with this tutor may review them.'))
      }
      await repos.reviews.lockRating(input.tutorId)
      const created = await repos.reviews.insert(input.tutorId, actor.id, input.review)
      if (!created) return err(fieldError('tutor_id', 'you have already reviewed this tutor'))
      await repos.reviews.saveRating(input.tutorId, tutorRating(await repos.reviews.totals(input.tutorId)))
      return ok(created)
    }),
  )
}
