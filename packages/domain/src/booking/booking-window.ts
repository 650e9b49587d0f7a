import { err, ok, type Result } from 'neverthrow'
import { BOOKING_WINDOW_DAYS, LONDON, MAX_PENDING_BOOKINGS, isoDateOf, zoneDayNumber } from '../shared'
import { bookingWindowExceeded, tooManyPendingBookings, type BookingWindowExceeded, type TooManyPendingBookings } from './errors'

/**
 * CONTRACT.md §13: a lesson may start from now through the end of today + 14 days, "today"
 * being the date in Europe/London; a start in the past is outside the window too.
 */
export const checkBookingWindow = (start: Date, now: Date): Result<void, BookingWindowExceeded> => {
  const today = zoneDayNumber(LONDON, now.getTime())
  const startDay = zoneDayNumber(LONDON, start.getTime())
  const inside = start.getTime() > now.getTime() && startDay <= today + BOOKING_WINDOW_DAYS
  return inside ? ok(undefined) : err(bookingWindowExceeded(isoDateOf(today), isoDateOf(today + BOOKING_WINDOW_DAYS)))
}

/** A student or parent holds at most three unpaid bookings at once (count those holding a slot). */
export const checkPendingBookings = (unpaidHolding: number): Result<void, TooManyPendingBookings> =>
  unpaidHolding >= MAX_PENDING_BOOKINGS ? err(tooManyPendingBookings(MAX_PENDING_BOOKINGS)) : ok(undefined)
