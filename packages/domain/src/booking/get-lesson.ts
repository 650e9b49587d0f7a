import { errAsync, okAsync, ResultAsync } from 'neverthrow'
import { notFound, type Actor, type NotFound } from '../shared'
import { maySeeBooking, type BookingAggregate } from './booking-record'
import type { BookingDeps } from './ports'

/** `GET /api/lessons/{id}`: a lesson with its booking; the same people see it as its booking. */
export function getLesson(deps: Pick<BookingDeps, 'uow'>, actor: Actor, lessonId: number): ResultAsync<BookingAggregate, NotFound> {
  return ResultAsync.fromSafePromise(deps.uow.repos.bookings.findByLessonId(lessonId)).andThen((found) =>
    found && maySeeBooking(actor, found) ? okAsync(found) : errAsync(notFound('lesson')),
  )
}
