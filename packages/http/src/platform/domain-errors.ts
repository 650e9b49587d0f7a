import type { DomainError } from '@tutoring/domain'
import { Problem } from './problem'

type Spec = { status: number; code: string; title: string; detail?: (error: never) => string }

/**
 * Every domain error type, one status and code each (CONTRACT §2), shared by both route
 * families. The `satisfies` makes a new domain error without a row here a type error.
 */
const TABLE = {
  NotFound: { status: 404, code: 'not_found', title: 'Not found', detail: (e: { resource: string }) => `No such ${e.resource}.` },
  Forbidden: { status: 403, code: 'forbidden', title: 'Forbidden', detail: (e: { reason: string }) => e.reason },
  ValidationFailed: { status: 422, code: 'validation_failed', title: 'Validation failed' },
  InvalidStateTransition: {
    status: 409,
    code: 'invalid_state_transition',
    title: 'Invalid state transition',
    detail: (e: { machine: string; from: string; trigger: string }) => `Cannot ${e.trigger} a ${e.machine} in state ${e.from}.`,
  },
  InvalidCredentials: {
    status: 401,
    code: 'invalid_credentials',
    title: 'Invalid credentials',
    detail: () => 'The email or the password is wrong.',
  },
  Unauthenticated: { status: 401, code: 'unauthenticated', title: 'Unauthenticated' },
  PaymentFailed: {
    status: 402,
    code: 'payment_failed',
    title: 'Payment failed',
    detail: (e: { reason: string }) => e.reason,
  },
  SlotUnavailable: {
    status: 409,
    code: 'slot_unavailable',
    title: 'Slot unavailable',
    detail: (e: { start: Date; finish: Date }) =>
      `The time ${e.start.toISOString()} to ${e.finish.toISOString()} is no longer free.`,
  },
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
  CouponInvalid: {
    status: 422,
    code: 'coupon_invalid',
    title: 'Coupon invalid',
    detail: (e: { uid: string; reason: string }) => `Coupon ${e.uid} cannot be used: ${e.reason.replace(/_/g, ' ')}.`,
  },
  TooManyPendingBookings: {
    status: 422,
    code: 'too_many_pending_bookings',
    title: 'Too many pending bookings',
    detail: (e: { limit: number }) => `Pay or cancel one of your ${e.limit} unpaid bookings first.`,
  },
  DocumentMissing: {
    status: 422,
    code: 'document_missing',
    title: 'Document missing',
    detail: (e: { kind: string }) => `No ${e.kind} document has been uploaded.`,
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
  UnsupportedMediaType: {
    status: 415,
    code: 'unsupported_media_type',
    title: 'Unsupported media type',
    detail: (e: { detected: string | null; accepted: string[] }) =>
      `The content is ${e.detected ?? 'of no accepted type'}; this route takes ${e.accepted.join(', ')}.`,
  },
  PayloadTooLarge: {
    status: 413,
    code: 'payload_too_large',
    title: 'Payload too large',
    detail: (e: { limitBytes: number }) => `An upload of this type may be at most ${e.limitBytes} bytes.`,
  },
} satisfies Record<DomainError['type'], Spec>

export function problemFromDomain(error: DomainError): Problem {
  const spec: Spec = TABLE[error.type]
  const detail = spec.detail ? spec.detail(error as never) : undefined
  if (error.type === 'ValidationFailed') {
    return new Problem(spec.status, spec.code, spec.title, 'Some fields are invalid.', error.errors)
  }
  return new Problem(spec.status, spec.code, spec.title, detail)
}
