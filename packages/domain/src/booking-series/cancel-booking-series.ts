import { err, ResultAsync, type Result } from 'neverthrow'
import { cancelBooking, type BookingDeps, type CancellationError } from '../booking'
import { invalidStateTransition, type Actor, type InvalidStateTransition, type NotFound } from '../shared'
import { readSeries, type BookingSeriesDetail } from './get-booking-series'

/**
 * `PUT /api/booking-series/{id}/cancel` (CONTRACT §16): every week not yet started and not
 * cancelled is cancelled as `PUT /api/bookings/{id}/cancel` would, each under the
 * cancellation policy (its own refund tier) and in its own transaction, as the money of each
 * week moves on its own. Weeks already held or cancelled stay as they are; a series with
 * none left to cancel is a 409.
 */
export function cancelBookingSeries(
  deps: Pick<BookingDeps, 'uow' | 'clock'>,
  actor: Actor,
  id: number,
): ResultAsync<BookingSeriesDetail, NotFound | CancellationError | InvalidStateTransition> {
  return new ResultAsync(run(deps, actor, id))
}

async function run(deps: Pick<BookingDeps, 'uow' | 'clock'>, actor: Actor, id: number): Promise<Result<BookingSeriesDetail, NotFound | CancellationError | InvalidStateTransition>> {
  const series = await readSeries(deps.uow.repos, actor, id)
  if (series.isErr()) return err(series.error)
  const now = deps.clock.now()
  const ahead = series.value.bookings.filter((b) => b.lesson.state !== 'CANCELLED' && b.lesson.start.getTime() > now.getTime())
  if (ahead.length === 0) return err(invalidStateTransition('booking series', 'STARTED', 'cancel'))
  for (const week of ahead) {
    const cancelled = await cancelBooking(deps, actor, { bookingId: week.booking.id })
    if (cancelled.isErr()) return err(cancelled.error)
  }
  return readSeries(deps.uow.repos, actor, id)
}
