import type { IsoDate } from '../shared'

export type BookingWindowExceeded = { type: 'BookingWindowExceeded'; firstDate: IsoDate; lastDate: IsoDate }
export type TooManyPendingBookings = { type: 'TooManyPendingBookings'; limit: number }
/** Only the hold-expiry worker can meet it: expiring a hold before its time. */
export type BookingHoldNotExpired = { type: 'BookingHoldNotExpired'; expiresAt: Date }

export const bookingWindowExceeded = (firstDate: IsoDate, lastDate: IsoDate): BookingWindowExceeded => ({
  type: 'BookingWindowExceeded',
  firstDate,
  lastDate,
})
export const tooManyPendingBookings = (limit: number): TooManyPendingBookings => ({ type: 'TooManyPendingBookings', limit })
export const bookingHoldNotExpired = (expiresAt: Date): BookingHoldNotExpired => ({
  type: 'BookingHoldNotExpired',
  expiresAt,
})
