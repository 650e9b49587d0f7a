export { changePaymentMethod, type ChangePaymentMethodError } from './change-payment-method'
export { listFailingPayments, retryFailingPayment } from './failing-payments'
export { getBookingPaymentStatus } from './get-booking-payment-status'
export { getPayment } from './get-payment'
export { getPaymentStatus, type PaymentStatusView } from './get-payment-status'
export { listPayments } from './list-payments'
export { payBooking, type PayBookingError, type PayBookingInput, type PayOutcome } from './pay-booking'
export { payBookingSeries, type PayBookingSeriesInput } from './pay-booking-series'
export { cancelUnauthenticatedLessons } from './payment-authentication'
export type {
  BookingPaymentsConfig,
  BookingPaymentsDeps,
  BookingPaymentsRepos,
  BookingPaymentState,
  FailingPaymentRepository,
  FailingPaymentWork,
  PaymentChange,
  PaymentEventRepository,
  PaymentRecord,
  PaymentRepository,
  TutorPayout,
  TutorTransferRepository,
} from './ports'
export { PAYMENT_EVENT_TYPES, type PaymentEvent, type PaymentEventOutcome, recordPaymentEvent } from './record-payment-event'
export { releasePayment, type ReleasePaymentError } from './release-payment'
export { releaseWaitingTransfers } from './release-waiting-transfers'
export { type DuePaymentsReport, PAYMENT_FAILURES_BEFORE_STAFF_ALERT, runDuePayments } from './run-due-payments'
export { feeOnPart, heldPence, PAYOUT_SYNC_TOPICS, separateTransferOf, tutorOwedOf, tutorShareOf } from './tutor-share'
