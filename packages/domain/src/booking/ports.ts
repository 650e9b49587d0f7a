import type { CatalogRepository } from '../catalog'
import type { Coupon } from '../pricing'
import type { LinkBuilder } from '../accounts'
import type { IntegrationEvents } from '../integrations'
import type { Outbox } from '../outbox'
import type { AvailabilityDeps, AvailabilityRepos, BookableTeach } from '../availability'
import type { LessonSide, LessonState } from '../lesson'
import type { Clock, PageOf, PageRequest, Pence, UnitOfWork } from '../shared'
import type { Titled } from '../teaching'
import type { BookingState } from './booking-state'
import type { BookingAggregate, BookingEvent, BookingSeries, BookingPayment, BookingRecord, BookingSetting, LessonRecord, PaymentStatus } from './booking-record'

/**
 * A bookable teach with its part of a new booking's setting: the tutor's standing, the booker,
 * the teach's subject and the chosen level (null when the teach does not cover it). As the
 * detail of a booking shows them (`BookingSetting`).
 */
export type BookingTeach = BookableTeach & { setting: Pick<BookingSetting, 'tutor' | 'booker' | 'subject'> & { subjectLevel: Titled | null } }

/** A lesson, its booking and the booking's first event as one insert: the lesson's fields, the booking's price, the event. */
export type NewBooking = Pick<
  LessonRecord,
  'tutorId' | 'studentId' | 'teachId' | 'subjectId' | 'subjectLevelId' | 'examBoardId' | 'lessonType' | 'start' | 'finish' | 'address' | 'meetingUrl'
> &
  Pick<BookingRecord, 'lessonPricePence' | 'serviceFeePence' | 'discountPence' | 'totalPence' | 'couponUid'> & {
    childIds: number[]
    /** The hold counts from here (the clock's now, not the database's). */
    createdAt: Date
    holdExpiresAt: Date
    /** The week of a weekly series this booking is, or null for a lone booking. */
    series: { id: number; position: number } | null
    event: { kind: string; actorId: number; data: Record<string, unknown> }
  }

export type HoldsAround = { unpaidHolding: number; lapsedHoldIds: number[] }

export type LessonPatch = {
  state?: LessonState
  start?: Date
  finish?: Date
  suggestedStart?: Date | null
  suggestedFinish?: Date | null
  proposedBy?: LessonSide | null
  proposalExpiresAt?: Date | null
  experienceRating?: number
  cancelledAt?: Date
  cancelledBy?: number | null
}

export type BookingPatch = {
  state?: BookingState
  refundedPence?: Pence
  holdExpiresAt?: Date | null
  discountPence?: Pence
  totalPence?: Pence
  couponUid?: string | null
  note?: string | null
}

export type BookingListFilter = {
  /** Only bookings this user can see as a party (booker or tutor); undefined for all. */
  partyId?: number
  /** Only bookings this user made (as student or parent). */
  bookerId?: number
}

export interface BookingRepository {
  /** Holds the tutor (their users row) until the transaction ends: one booking decision at a time per tutor. */
  lockTutor(tutorId: number): Promise<void>
  /**
   * Holds the tutor and the booker (both users rows, in id order, so two bookings never wait
   * on each other) until the transaction ends: one booking decision at a time per tutor and
   * per booker, so the unpaid limit and per-user coupon limits hold under concurrency.
   */
  lockTutorAndBooker(tutorId: number, bookerId: number): Promise<void>
  /**
   * What a booking decision reads of holds, in one read: the booker's unpaid bookings holding
   * slots (a weekly series counting once, CONTRACT §16), and the tutor's unpaid bookings over
   * any of these times whose hold lapsed but whose lesson is still open.
   */
  holdsAround(bookerId: number, tutorId: number, times: ReadonlyArray<{ start: Date; finish: Date }>, now: Date): Promise<HoldsAround>
  /** A new weekly series of this many weeks; its id. Its bookings name it as they are inserted. */
  insertSeries(userId: number, weeks: number, createdAt: Date): Promise<number>
  findSeries(id: number): Promise<BookingSeries | undefined>
  /**
   * The teach to book, as `bookableTeaches` reads it, with what the booking's answer names of it
   * and of its booker (`BookingTeach`): one statement, so the answer needs no read of its own.
   */
  findBookingTeach(teachId: number, bookerId: number, subjectLevelId: number): Promise<BookingTeach | undefined>
  /** Of the given children, those belonging to this parent (and not deleted), with their names. */
  ownChildren(parentId: number, childIds: readonly number[]): Promise<BookingSetting['children']>
  /** The booking, its lesson and its event as stored; undefined when the database refuses the time (another live lesson of the tutor overlaps). */
  insert(draft: NewBooking): Promise<{ booking: BookingRecord; lesson: LessonRecord; event: BookingEvent } | undefined>
  findById(id: number): Promise<BookingAggregate | undefined>
  findByLessonId(lessonId: number): Promise<BookingAggregate | undefined>
  /** Locks the booking and its lesson rows (FOR UPDATE) and answers them fresh. */
  lockById(id: number): Promise<BookingAggregate | undefined>
  list(filter: BookingListFilter, page: PageRequest): Promise<PageOf<BookingAggregate>>
  updateBooking(id: number, patch: BookingPatch): Promise<void>
  /** Undefined when the database refuses new times (they overlap another live lesson). */
  updateLesson(id: number, patch: LessonPatch): Promise<true | undefined>
  /** The event as stored. */
  addEvent(bookingId: number, kind: string, actorId: number | null, data?: Record<string, unknown>): Promise<BookingEvent>
  /** Claims (FOR UPDATE SKIP LOCKED) unpaid bookings whose hold lapsed; other workers skip them. */
  claimLapsedHolds(now: Date, limit: number): Promise<number[]>
  /** Claims lessons whose reschedule proposal expired; answers their booking ids. */
  claimExpiredProposals(now: Date, limit: number): Promise<number[]>
  /**
   * Claims (FOR UPDATE SKIP LOCKED) lessons whose part in their tutor's hours taught is due to
   * change (`countsAsTaught`): finished by `now`, not cancelled and not counted yet; or counted
   * and cancelled since.
   */
  claimHoursTaughtChanges(now: Date, limit: number): Promise<HoursTaughtChange[]>
  /** Marks the lessons counted in their tutors' hours taught at `at`, or (null) no longer counted. */
  markTaught(lessonIds: readonly number[], at: Date | null): Promise<void>
  /** Adds (or, negative, takes back) minutes to the tutor's hours taught. */
  addMinutesTaught(tutorId: number, minutes: number): Promise<void>
  /** This user's lessons (as booker or student) with the tutor that were not cancelled and were paid or authorised. */
  lessonsWith(tutorId: number, userId: number): Promise<Array<{ finish: Date; bookingState: BookingState }>>
}

/** A lesson as the hours-taught count sees it; `counted` when it is in its tutor's figure. */
export type HoursTaughtChange = Pick<LessonRecord, 'id' | 'tutorId' | 'state' | 'start' | 'finish'> & { counted: boolean }

export type NewPayment = {
  bookingId: number
  userId: number
  status: PaymentStatus
  amountPence: Pence
  paymentMethodId: string | null
  authorizeAt: Date | null
  captureAt: Date | null
}

export type PaymentPatch = Partial<
  Pick<
    BookingPayment,
    | 'status'
    | 'capturedPence'
    | 'refundedPence'
    | 'intentId'
    | 'voidedIntentId'
    | 'clientSecret'
    | 'setupIntentId'
    | 'redirectUrl'
    | 'lastError'
    | 'authorizeAt'
    | 'captureAt'
    | 'paymentMethodId'
    | 'routing'
    | 'failedAttempts'
    | 'retryAt'
  >
>

/**
 * A booking's payment rows as the booking's own decisions move them: a settlement releases,
 * refunds or captures them, a reschedule moves their times. booking-payments' PaymentRepository
 * is this and the rest of a payment's life.
 */
export interface BookingPaymentRepository {
  insert(payment: NewPayment): Promise<BookingPayment>
  /** Every payment (attempt) of the booking, oldest first. */
  listByBooking(bookingId: number): Promise<BookingPayment[]>
  update(id: number, patch: PaymentPatch): Promise<void>
}

export type StoredCoupon = Coupon & { id: number; active: boolean }

export interface CouponRepository {
  /** Active coupons only; with how often each was redeemed. */
  findByUid(uid: string): Promise<StoredCoupon | undefined>
  redeemedBy(couponId: number, userId: number): Promise<number>
  /**
   * False when the database refuses it: another transaction took this use's number meanwhile
   * (each use is numbered per user, and a number is unique). `useNumber` is one past the uses
   * the caller counted when it validated the coupon, so two transactions that both counted the
   * same uses claim the same number and only one is written.
   */
  redeem(input: { couponId: number; userId: number; bookingId: number; discountPence: Pence; useNumber: number }): Promise<boolean>
  /** Active coupons unexpired at `now`: the service's clock, the one validation judges expiry by. */
  list(page: PageRequest, now: Date): Promise<PageOf<StoredCoupon>>
}

/**
 * A committed lesson that may be due a reminder: its booking paid or its card saved for the
 * authorisation, its lesson not cancelled, its start ahead.
 */
export type ReminderCandidate = {
  lessonId: number
  bookingId: number
  start: Date
  /** When the lesson was committed at its current time: paid (or the card saved), or moved there by an approved reschedule. */
  committedAt: Date
  /** The offsets (minutes) already reminded for this start. */
  sentOffsets: readonly number[]
  /** Each recipient's time zone, by user id (the booker's and the tutor's). */
  timeZones: ReadonlyMap<number, string>
}

export interface LessonReminderRepository {
  /** Committed lessons starting after `now` and at most `horizonMinutes` later. */
  listCandidates(now: Date, horizonMinutes: number): Promise<ReminderCandidate[]>
  /**
   * Records the reminder of this lesson at this start and offset; false when it is recorded
   * already (another run, maybe another instance, sent it): the key is unique, so a racing
   * insert waits for the first and then finds it.
   */
  record(lessonId: number, start: Date, offsetMinutes: number, at: Date): Promise<boolean>
}

/** Availability's readers too: the slot check runs inside the booking's transaction, under the tutor's lock. */
export interface BookingRepos extends AvailabilityRepos {
  bookings: BookingRepository
  payments: BookingPaymentRepository
  coupons: CouponRepository
  catalog: CatalogRepository
  reminders: LessonReminderRepository
  outbox: Outbox
  /** Events for integrators' webhooks, recorded with the change. */
  integrationEvents: IntegrationEvents
}

export type BookingConfig = {
  holdMinutes: number
  serviceFeePercent: number
  /** Where online lessons meet; a per-lesson room is appended. */
  meetingBaseUrl: string
  /** Minutes before a lesson's start at which both sides are reminded (`LESSON_REMINDERS`). */
  reminderOffsetsMinutes: readonly number[]
}

export type BookingDeps = {
  uow: UnitOfWork<BookingRepos>
  clock: Clock
  links: LinkBuilder
  ids: { uuid(): string }
  config: BookingConfig
  /** What the slot check needs besides the database: postcodes, geocoder, travel times, busy calendars. */
  availability: Omit<AvailabilityDeps, 'uow' | 'clock'>
}
