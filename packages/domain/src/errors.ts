/**
 * Every error the domain returns, for the HTTP layer's one exhaustive table of status and
 * code (STYLE.md §5). A context that adds an error type adds it here too, and the compiler
 * then points at the table.
 */
import type { BookingHoldNotExpired, BookingWindowExceeded, TooManyPendingBookings } from './booking'
import type { LessonNotFinished, ProposalNotExpired, RescheduleNoticeTooShort } from './lesson'
import type { CouponInvalid } from './pricing'
import type { Forbidden, InvalidStateTransition, NotFound, ValidationFailed } from './shared'
import type { SlotUnavailable } from './availability'
import type { DocumentMissing } from './verification'
import type { AccountsError } from './accounts'
import type { ProfilesError } from './profiles'
import type { FilesError } from './files'
import type { PaymentFailed } from './payments'

export type DomainError =
  | AccountsError
  | ProfilesError
  | FilesError
  | NotFound
  | Forbidden
  | ValidationFailed
  | InvalidStateTransition
  | RescheduleNoticeTooShort
  | LessonNotFinished
  | ProposalNotExpired
  | BookingWindowExceeded
  | TooManyPendingBookings
  | BookingHoldNotExpired
  | SlotUnavailable
  | CouponInvalid
  | DocumentMissing
  | PaymentFailed

export type DomainErrorType = DomainError['type']
