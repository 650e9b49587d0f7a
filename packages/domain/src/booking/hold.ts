import { DEFAULT_BOOKING_HOLD_MINUTES, MINUTE_MS } from '../shared'
import type { LessonState } from '../lesson'
import type { BookingState } from './booking-state'

/** CONTRACT.md §6: an unpaid booking holds its slot for BOOKING_HOLD_MINUTES (default 15). */
export const holdExpiresAt = (createdAt: Date, holdMinutes = DEFAULT_BOOKING_HOLD_MINUTES): Date =>
  new Date(createdAt.getTime() + holdMinutes * MINUTE_MS)

/**
 * Whether a booking's lesson still occupies the tutor's time: not cancelled, and either paid
 * (in any way) or unpaid within its hold. A hold that lapsed frees the slot at once, even
 * before the expiry worker has cancelled the lesson; availability relies on this.
 */
export const isHoldingSlot = (input: {
  bookingState: BookingState
  lessonState: LessonState
  createdAt: Date
  holdMinutes?: number
  now: Date
}): boolean => {
  if (input.lessonState === 'CANCELLED') return false
  if (input.bookingState !== 'AWAITING_PAYMENT') return true
  return input.now.getTime() < holdExpiresAt(input.createdAt, input.holdMinutes).getTime()
}
