import { err, ok, ResultAsync } from 'neverthrow'
import { forbidden, isInternal, notFound, type Actor, type Forbidden, type NotFound } from '../shared'
import { maySeeBooking, type BookingAggregate } from './booking-record'
import type { BookingDeps } from './ports'

/**
 * `PUT /api/bookings/{id}`: the booker (or staff) changes the booking's own note to the
 * tutor. Nothing else of a booking is the client's to set: states move through pay,
 * cancel and the lesson routes, prices are fixed when booked.
 */
export function updateBooking(
  deps: Pick<BookingDeps, 'uow'>,
  actor: Actor,
  input: { id: number; note: string | null },
): ResultAsync<BookingAggregate, NotFound | Forbidden> {
  return new ResultAsync(
    deps.uow.run(async (repos) => {
      const found = await repos.bookings.lockById(input.id)
      if (!found || !maySeeBooking(actor, found)) return err(notFound('booking'))
      if (found.booking.userId !== actor.id && !isInternal(actor.roleId)) {
        return err(forbidden('Only the booker changes the booking note.'))
      }
      await repos.bookings.updateBooking(input.id, { note: input.note })
      await repos.bookings.addEvent(input.id, 'note_changed', actor.id)
      const updated = await repos.bookings.findById(input.id)
      return updated ? ok(updated) : err(notFound('booking'))
    }),
  )
}
