import { errAsync, okAsync, ResultAsync } from 'neverthrow'
import { notFound, type Actor, type NotFound } from '../shared'
import { maySeeBooking, type BookingAggregate } from './booking-record'
import type { BookingDeps } from './ports'

/** `GET /api/bookings/{id}`: internal staff, the booker and the tutor; to anyone else it does not exist. */
export function getBooking(deps: Pick<BookingDeps, 'uow'>, actor: Actor, id: number): ResultAsync<BookingAggregate, NotFound> {
  return ResultAsync.fromSafePromise(deps.uow.repos.bookings.findById(id)).andThen((found) =>
    found && maySeeBooking(actor, found) ? okAsync(found) : errAsync(notFound('booking')),
  )
}
