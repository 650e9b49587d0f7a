import type { BookingPayment, BookingPaymentRepository, BookingRepos, BookingState, PaymentDispute } from '../booking'
import type { LessonState } from '../lesson'
import type { PaymentCustomerRepository, PaymentIntentStatus, PaymentProcessor, PayoutAccountRepository } from '../payments'
import type { Clock, PageOf, PageRequest, Pence, UnitOfWork, WebhookEventLog } from '../shared'

/** A booking's payment rows through their whole life: paid, authorised and captured when due, listed. */
export interface PaymentRepository extends BookingPaymentRepository {
  findById(id: number): Promise<BookingPayment | undefined>
  /**
   * Claims one due row (FOR UPDATE SKIP LOCKED): a scheduled authorisation, a capture after
   * the lesson, or an authorisation still waiting for the customer at its deadline; a row
   * that failed waits for its `retryAt`.
   */
  claimDue(kind: 'authorize' | 'capture' | 'authentication', now: Date): Promise<BookingPayment | undefined>
  defaultPaymentMethodOf(userId: number): Promise<string | null>
  /** Payments newest first: one payer's (`userId`), or every payment. */
  list(filter: { userId?: number }, page: PageRequest): Promise<PageOf<BookingPayment>>
}

/** A booking's payment as the payment webhook sees it. */
export type PaymentRecord = Pick<
  BookingPayment,
  'id' | 'bookingId' | 'userId' | 'status' | 'amountPence' | 'capturedPence' | 'refundedPence' | 'dispute' | 'intentId' | 'voidedIntentId' | 'paymentMethodId' | 'failedAttempts'
> & {
  tutorId: number
}

export type PaymentChange = {
  /** Learnt from the event when the call that made the intent never answered. */
  intentId?: string
  status?: PaymentIntentStatus
  capturedPence?: number
  refundedPence?: number
  lastError?: string | null
  dispute?: PaymentDispute
  at: Date
}

/** A payout of a tutor's connected account, as the processor reported it. */
export type TutorPayout = { id: string; tutorId: number; amountPence: Pence; status: 'paid' | 'failed'; failureMessage: string | null }

/**
 * Tutors' shares the platform holds because their account could not be paid when the
 * customer was charged, and the payouts of their accounts.
 */
export interface TutorTransferRepository {
  /** A share to pay by separate transfer once the payment is captured and the account enabled. */
  insertWaiting(input: { paymentId: number; tutorId: number; transferGroup: string }): Promise<void>
  /**
   * Claims (FOR UPDATE SKIP LOCKED) waiting shares whose payment is captured and whose
   * tutor's account is payout-enabled, of one tutor or all, and marks them queued. Of a
   * payment of nothing (a 100 % coupon), once its lesson finished (by `now`) uncancelled.
   */
  claimReady(tutorId: number | null, now: Date, limit: number): Promise<number[]>
  /** Stores a payout's state; false, changing nothing, when it is already recorded so (or failed). */
  recordPayout(payout: TutorPayout, at: Date): Promise<boolean>
  /** Where to tell a tutor about their payouts. */
  contactOf(userId: number): Promise<{ email: string; firstname: string } | undefined>
}

export type BookingPaymentState = { id: number; state: BookingState; lessonState: LessonState }

/** The rows the payment webhook touches: the payment, its booking's state and timeline. */
export interface PaymentEventRepository {
  lockById(paymentId: number): Promise<PaymentRecord | undefined>
  lockByIntentId(paymentIntentId: string): Promise<PaymentRecord | undefined>
  /** The payment waiting on this card setup (a far lesson's, 3-D Secure pending). */
  lockBySetupIntentId(setupIntentId: string): Promise<PaymentRecord | undefined>
  update(id: number, change: PaymentChange): Promise<void>
  lockBooking(bookingId: number): Promise<BookingPaymentState | undefined>
  setBookingState(bookingId: number, state: BookingState, at: Date): Promise<void>
  addBookingEvent(event: { bookingId: number; kind: string; data: Record<string, unknown>; at: Date }): Promise<void>
}

/** Due payment work (an authorisation or a capture) the processor refused, still due: what staff watch. */
export type FailingPaymentWork = { id: number; bookingId: number; work: 'authorize' | 'capture'; attempts: number; retryAt: Date | null; lastError: string | null }

/** The operator's view of payments whose due work keeps failing (`cli outbox:failed`, `outbox:retry payment:ID`). */
export interface FailingPaymentRepository {
  /** Payments with failures whose work is still due, oldest first. */
  list(): Promise<FailingPaymentWork[]>
  /** Makes the payment's failing work due at `now`; false when it has no such work. */
  retryNow(id: number, now: Date): Promise<boolean>
}

/** Booking's repositories too: paying drives the booking machine, and releasing a held payment cancels its booking. */
export interface BookingPaymentsRepos extends BookingRepos {
  payments: PaymentRepository
  paymentEvents: PaymentEventRepository
  webhookEvents: WebhookEventLog
  paymentCustomers: PaymentCustomerRepository
  payoutAccounts: PayoutAccountRepository
  tutorTransfers: TutorTransferRepository
  failingPayments: FailingPaymentRepository
}

export type BookingPaymentsConfig = {
  /** Where a customer returns after a 3-D Secure step. */
  paymentReturnUrl: string
  /**
   * The page where a customer completes a payment that needs them (an off-session
   * authorisation the bank wants confirmed); `payment_id` is appended.
   */
  paymentActionUrl: string
  /** Staff's address: told of disputed charges and of money that keeps failing to move. */
  internalMailbox: string
}

export type BookingPaymentsDeps = {
  uow: UnitOfWork<BookingPaymentsRepos>
  clock: Clock
  processor: PaymentProcessor
  config: BookingPaymentsConfig
}
