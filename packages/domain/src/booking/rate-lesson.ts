import { err, ok, ResultAsync } from 'neverthrow'
import { rateExperience, type RateExperienceError } from '../lesson'
import { notFound, type Actor, type NotFound } from '../shared'
import { maySeeBooking, partiesOf, type BookingAggregate } from './booking-record'
import type { BookingDeps } from './ports'

/** `PUT /api/v1/lessons/{id}` with `experience_rating`: once, by the student or parent, after the finish. */
export function rateLesson(
  deps: Pick<BookingDeps, 'uow' | 'clock'>,
  actor: Actor,
  input: { lessonId: number; rating: number },
): ResultAsync<BookingAggregate, NotFound | RateExperienceError> {
  return new ResultAsync(
    deps.uow.run(async (repos) => {
      const located = await repos.bookings.findByLessonId(input.lessonId)
      if (!located || !maySeeBooking(actor, located)) return err(notFound('lesson'))
      const a = await repos.bookings.lockById(located.booking.id)
      if (!a) return err(notFound('lesson'))
      const rated = rateExperience({
        actor,
        parties: partiesOf(a),
        lesson: { state: a.lesson.state, finish: a.lesson.finish, experienceRating: a.lesson.experienceRating },
        rating: input.rating,
        now: deps.clock.now(),
      })
      if (rated.isErr()) return err(rated.error)
      await repos.bookings.updateLesson(a.lesson.id, { experienceRating: rated.value })
      await repos.bookings.addEvent(a.booking.id, 'rated', actor.id, { experience_rating: rated.value })
      const after = await repos.bookings.findById(a.booking.id)
      return after ? ok(after) : err(notFound('lesson'))
    }),
  )
}
