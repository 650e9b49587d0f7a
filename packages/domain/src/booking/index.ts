export { approveLessonReschedule } from './approve-lesson-reschedule'
export type {
  BookingAggregate,
  BookingEvent,
  BookingPayment,
  BookingRecord,
  LessonAddress,
  LessonNote,
  LessonRecord,
  PaymentDispute,
  PaymentRouting,
  PaymentStatus,
  Person,
} from './booking-record'
export { BOOKING_STATE_NAMES, BOOKING_STATES, type BookingState, bookingStateOf } from './booking-state'
export { cancelBooking } from './cancel-booking'
export type { CancellationError } from './cancellation'
export { changePaymentMethod, type ChangePaymentMethodError } from './change-payment-method'
export { checkCoupon, type CouponCheck } from './check-coupon'
export { createBooking, type CreateBookingError, type CreateBookingInput } from './create-booking'
export { createNote } from './create-note'
export { declineLessonReschedule } from './decline-lesson-reschedule'
export { deleteNote } from './delete-note'
export type { BookingHoldNotExpired, BookingWindowExceeded, TooManyPendingBookings } from './errors'
export { expireHolds } from './expire-holds'
export { expireReschedules } from './expire-reschedules'
export { getBooking } from './get-booking'
export { getLesson } from './get-lesson'
export { getNote } from './get-note'
export { getBookingPaymentStatus } from './get-booking-payment-status'
export { getPayment } from './get-payment'
export { getPaymentStatus, type PaymentStatusView } from './get-payment-status'
export { listBookings } from './list-bookings'
export { listCoupons } from './list-coupons'
export { listNotes } from './list-notes'
export { listPayments } from './list-payments'
export { payBooking, type PayBookingError, type PayBookingInput, type PayOutcome } from './pay-booking'
export { cancelUnauthenticatedLessons } from './payment-authentication'
export type {
  BookingConfig,
  BookingDeps,
  BookingListFilter,
  BookingPatch,
  BookingPaymentState,
  BookingRepos,
  BookingRepository,
  CouponRepository,
  LessonPatch,
  NewBooking,
  NewPayment,
  NoteDraft,
  NoteRepository,
  PaymentChange,
  PaymentEventRepository,
  PaymentPatch,
  PaymentRecord,
  PaymentRepository,
  StoredCoupon,
  TutorPayout,
  TutorTransferRepository,
} from './ports'
export { proposeLessonReschedule } from './propose-lesson-reschedule'
export { rateLesson } from './rate-lesson'
export { PAYMENT_EVENT_TYPES, type PaymentEvent, type PaymentEventOutcome, recordPaymentEvent } from './record-payment-event'
export { releasePayment, type ReleasePaymentError } from './release-payment'
export { releaseWaitingTransfers } from './release-waiting-transfers'
export { type DuePaymentsReport, PAYMENT_FAILURES_BEFORE_STAFF_ALERT, runDuePayments } from './run-due-payments'
export { PAYMENT_SYNC_TOPICS } from './settlement'
export {
  type BookingContexts,
  type BookingEffect,
  type BookingTransition,
  type BookingTransitionError,
  type BookingTrigger,
  transitionBooking,
} from './transitions'
export { feeOnPart, heldPence, PAYOUT_SYNC_TOPICS, tutorShareOf } from './tutor-share'
export { updateBooking } from './update-booking'
export { updateNote } from './update-note'
