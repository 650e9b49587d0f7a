import type { LessonSide, LessonState } from '../lesson'
import type { PaymentIntentStatus } from '../payments'
import { ROLE_IDS, isInternal, type Actor, type LessonTypeName, type Pence, type RoleId } from '../shared'
import type { BookingState } from './booking-state'
import type { BookingParties } from './cancellation'

/** An in-person lesson's place. */
export type LessonAddress = {
  line1: string
  line2: string | null
  city: string
  postcode: string
  country: string
  lat: number | null
  lng: number | null
}

export type LessonRecord = {
  id: number
  tutorId: number
  /** Whoever booked it: a student, or a parent booking for their children. */
  studentId: number
  teachId: number
  subjectId: number
  subjectLevelId: number
  examBoardId: number | null
  lessonType: LessonTypeName
  state: LessonState
  start: Date
  finish: Date
  suggestedStart: Date | null
  suggestedFinish: Date | null
  proposedBy: LessonSide | null
  proposalExpiresAt: Date | null
  address: LessonAddress | null
  meetingUrl: string | null
  experienceRating: number | null
  cancelledAt: Date | null
}

export type BookingRecord = {
  id: number
  lessonId: number
  userId: number
  state: BookingState
  holdExpiresAt: Date | null
  lessonPricePence: Pence
  serviceFeePence: Pence
  discountPence: Pence
  totalPence: Pence
  refundedPence: Pence
  couponUid: string | null
  note: string | null
  createdAt: Date
}

/** As the processor names them, plus `scheduled`: a card to authorise off-session later. */
export type PaymentStatus = PaymentIntentStatus | 'scheduled'

/** A cardholder's dispute of the charge, as the processor last reported it. */
export type PaymentDispute = { id: string; status: string; reason: string | null; amountPence: Pence; openedAt: Date }

/**
 * Where a payment's money goes, fixed before the processor hears of it: the tutor's
 * connected account as the charge's destination (null: the platform takes the charge and
 * pays the tutor's share by separate transfer), and the platform's fee.
 */
export type PaymentRouting = { destinationAccountId: string | null; applicationFeePence: Pence; transferGroup: string }

export type BookingPayment = {
  id: number
  bookingId: number
  userId: number
  status: PaymentStatus
  amountPence: Pence
  capturedPence: Pence
  refundedPence: Pence
  intentId: string | null
  /**
   * The intent a retry of this payment gave up (its unanswered first call's, or a 3-D Secure
   * step left unfinished), its cancel queued: an answer or event of it is never taken for the
   * payment again.
   */
  voidedIntentId: string | null
  paymentMethodId: string | null
  clientSecret: string | null
  /** The card setup of a lesson more than 6 days out still waiting for the customer (3-D Secure). */
  setupIntentId: string | null
  redirectUrl: string | null
  authorizeAt: Date | null
  captureAt: Date | null
  lastError: string | null
  routing: PaymentRouting | null
  dispute: PaymentDispute | null
  /** Due work (an authorisation or a capture) the processor refused or never answered, in a row. */
  failedAttempts: number
  /** When the due work is tried again after a failure; null when it is due at its own time. */
  retryAt: Date | null
  createdAt: Date
}

export type Person = { id: number; firstname: string; lastname: string; email: string; username: string; roleId: RoleId }
import type { Titled } from '../teaching'
export type BookingEvent = { id: number; kind: string; actorId: number | null; data: Record<string, unknown>; at: Date }
export type LessonNote = { id: number; lessonId: number; authorId: number; text: string; summary: string; fileIds: string[]; createdAt: Date; updatedAt: Date }

/**
 * The lesson's tutor as a booking's detail shows them (CONTRACT §17): who they are and their
 * public standing, the stored rating and hours taught (in minutes; http shows hours).
 */
export type BookingTutor = Person & { hasPicture: boolean; bio: string | null; overallRating: number | null; reviewCount: number; minutesTaught: number }

/** What a booking's detail names besides its own rows: its tutor, booker and children, its subject and level. */
export type BookingSetting = {
  tutor: BookingTutor
  booker: Person
  children: Array<{ id: number; firstname: string; lastname: string }>
  subject: Titled
  subjectLevel: Titled
}

/** A booking's place in its weekly series (CONTRACT §16): the series, its week (from 1), and every week's booking. */
export type SeriesPlace = { id: number; position: number; weeks: number; bookingIds: number[] }

/** A weekly series as stored: who booked it and its weeks' bookings, first week first. */
export type BookingSeries = { id: number; userId: number; weeks: number; bookingIds: number[] }

/** A booking with everything its detail view shows. */
export type BookingAggregate = BookingSetting & {
  booking: BookingRecord
  series: SeriesPlace | null
  lesson: LessonRecord
  payment: BookingPayment | null
  events: BookingEvent[]
  notes: LessonNote[]
}

export const partiesOf = (a: Pick<BookingAggregate, 'booking' | 'lesson' | 'booker'>): BookingParties => ({
  tutorId: a.lesson.tutorId,
  studentId: a.lesson.studentId,
  parentId: a.booker.roleId === ROLE_IDS.parent ? a.booker.id : null,
  bookingOwnerId: a.booking.userId,
})

/** Internal staff see every booking; otherwise the booker and the tutor (the lesson's parties). */
export const maySeeBooking = (actor: Actor, a: Pick<BookingAggregate, 'booking' | 'lesson' | 'booker'>): boolean => {
  if (isInternal(actor.roleId)) return true
  const p = partiesOf(a)
  return [p.tutorId, p.studentId, p.bookingOwnerId, p.parentId].includes(actor.id)
}
