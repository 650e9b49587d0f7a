import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { maySeeBooking, type BookingAggregate, type BookingDeps, type BookingRepos } from '../booking'
import { notFound, type Actor, type NotFound, type WithoutLocks } from '../shared'

/** A weekly series with every week's booking detail, first week first. */
export type BookingSeriesDetail = { id: number; weeks: number; bookings: BookingAggregate[] }

/**
 * The series and its weeks as this actor may see them: the bookings' visibility (its weeks
 * share their tutor and booker), so a series nobody may see does not exist (404).
 */
export async function readSeries(repos: WithoutLocks<Pick<BookingRepos, 'bookings'>>, actor: Actor, id: number): Promise<Result<BookingSeriesDetail, NotFound>> {
  const series = await repos.bookings.findSeries(id)
  if (!series) return err(notFound('booking series'))
  const bookings: BookingAggregate[] = []
  for (const bookingId of series.bookingIds) {
    const found = await repos.bookings.findById(bookingId)
    if (found) bookings.push(found)
  }
  if (bookings.length === 0 || !bookings.every((b) => maySeeBooking(actor, b))) return err(notFound('booking series'))
  return ok({ id: series.id, weeks: series.weeks, bookings })
}

/** `GET /api/booking-series/{id}` (CONTRACT §16). */
export function getBookingSeries(deps: Pick<BookingDeps, 'uow'>, actor: Actor, id: number): ResultAsync<BookingSeriesDetail, NotFound> {
  return new ResultAsync(readSeries(deps.uow.repos, actor, id))
}
