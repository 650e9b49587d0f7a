export { approveLessonReschedule } from './approve-lesson-reschedule'
export {
  type BookingAggregate,
  type BookingEvent,
  type BookingPayment,
  type BookingRecord,
  type BookingSeries,
  type BookingSetting,
  type BookingTutor,
  type LessonAddress,
  type LessonNote,
  type LessonRecord,
  maySeeBooking,
  type PaymentDispute,
  type PaymentRouting,
  type PaymentStatus,
  type Person,
  type SeriesPlace,
} from './booking-record'
export { BOOKING_STATE_NAMES, BOOKING_STATES, type BookingState, bookingStateOf } from './booking-state'
export { cancelBooking } from './cancel-booking'
export { cancelUntakenLesson } from './cancel-untaken-lesson'
export type { CancellationError } from './cancellation'
export { checkCoupon, type CouponCheck } from './check-coupon'
export { countHoursTaught } from './count-hours-taught'
export { createBooking, type CreateBookingError, type CreateBookingInput } from './create-booking'
export { declineLessonReschedule } from './decline-lesson-reschedule'
export type { BookingHoldNotExpired, BookingWindowExceeded, TooManyPendingBookings } from './errors'
export { expireHolds } from './expire-holds'
export { expireReschedules } from './expire-reschedules'
export { getBooking } from './get-booking'
export { getLesson } from './get-lesson'
export { listBookings } from './list-bookings'
export { listCoupons } from './list-coupons'
export { announceBooking, announceIfPaid, bookingPartyIds } from './integration-events'
export { AUTHORIZE_LEAD_DAYS } from './payment-times'
export type {
  BookingConfig,
  BookingDeps,
  BookingListFilter,
  BookingPatch,
  BookingPaymentRepository,
  BookingRepos,
  BookingRepository,
  BookingTeach,
  CouponRepository,
  HoursTaughtChange,
  LessonPatch,
  LessonReminderRepository,
  NewBooking,
  NewPayment,
  PaymentPatch,
  ReminderCandidate,
  StoredCoupon,
} from './ports'
export { proposeLessonReschedule } from './propose-lesson-reschedule'
export { rateLesson } from './rate-lesson'
export { sendDueReminders } from './send-due-reminders'
export { backingPayment, isLivePayment, lessonEmailData, managementUrl, PAYMENT_SYNC_TOPICS, releaseAttempt } from './settlement'
export {
  type BookingContexts,
  type BookingEffect,
  type BookingTransition,
  type BookingTransitionError,
  type BookingTrigger,
  transitionBooking,
} from './transitions'
export { updateBooking } from './update-booking'
