import type { ErrorRows } from '../platform/error-spec'

/** The rows of the error table (platform/domain-errors.ts) for booking's errors and the lesson context's, whose routes live here. */
export const bookingErrors = {
  RescheduleNoticeTooShort: {
    status: 422,
    code: 'reschedule_notice_too_short',
    title: 'Reschedule notice too short',
    detail: (e: { requiredHours: number }) => `A reschedule must be proposed at least ${e.requiredHours} hours before the lesson starts.`,
  },
  BookingWindowExceeded: {
    status: 422,
    code: 'booking_window_exceeded',
    title: 'Booking window exceeded',
    detail: (e: { firstDate: string; lastDate: string }) => `Lessons can be booked from ${e.firstDate} to ${e.lastDate}.`,
  },
  TooManyPendingBookings: {
    status: 422,
    code: 'too_many_pending_bookings',
    title: 'Too many pending bookings',
    detail: (e: { limit: number }) => `Pay or cancel one of your ${e.limit} unpaid bookings first.`,
  },
  LessonNotFinished: {
    status: 422,
    code: 'lesson_not_finished',
    title: 'Lesson not finished',
    detail: (e: { finish: Date }) =>
      `The lesson finishes at ${e.finish.toISOString()}: it can be rated after that, and its tutor reviewed once its payment has also been captured.`,
  },
  // Only the background workers can meet these two; a request never should.
  ProposalNotExpired: { status: 409, code: 'invalid_state_transition', title: 'Proposal not expired' },
  BookingHoldNotExpired: { status: 409, code: 'invalid_state_transition', title: 'Booking hold not expired' },
} satisfies ErrorRows
