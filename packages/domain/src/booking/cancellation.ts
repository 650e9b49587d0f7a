import { err, ok, type Result } from 'neverthrow'
import { forbidden, isInternal, type Actor, type Forbidden, type InvalidStateTransition, type Pence } from '../shared'
import {
  authorizeRescheduleResponse,
  transitionLesson,
  type LessonEffect,
  type LessonParties,
  type LessonSide,
  type LessonState,
  type LessonTransition,
  type LessonTransitionError,
} from '../lesson'
import { DEFAULT_CANCELLATION_POLICY, refundAmount, refundPercentFor, type RefundTier } from '../pricing'
import type { BookingState } from './booking-state'
import { transitionBooking, type BookingEffect, type BookingTransition, type BookingTransitionError } from './transitions'

/** A lesson's parties plus the user who made the booking (a student or a parent). */
export type BookingParties = LessonParties & { bookingOwnerId: number }

/** Who cancelled decides the refund: the tutor or staff always refund in full. */
export type Canceller = 'internal' | 'tutor' | 'customer'

/**
 * CONTRACT.md §6 and §13: internal staff, the booking owner, the lesson's student or parent,
 * and the tutor may cancel; anyone else is refused.
 */
export const authorizeCancellation = (actor: Actor, parties: BookingParties): Result<Canceller, Forbidden> => {
  if (isInternal(actor.roleId)) return ok('internal')
  if (actor.id === parties.tutorId) return ok('tutor')
  const customers = [parties.bookingOwnerId, parties.studentId, parties.parentId]
  if (customers.includes(actor.id)) return ok('customer')
  return err(forbidden('only staff, the tutor, the booking owner, the student or their parent may cancel'))
}

export const cancellationRefundPercent = (input: {
  canceller: Canceller
  policy: readonly RefundTier[]
  start: Date
  now: Date
}): number => (input.canceller === 'customer' ? refundPercentFor(input.policy, input.start, input.now) : 100)

/** The lesson's and the booking's transitions and everything the adapters must do, together. */
export type SettlementPlan = {
  lesson: LessonTransition
  booking: BookingTransition
  refundPence: Pence
  effects: (LessonEffect | BookingEffect)[]
}

export type CancellationPlan = SettlementPlan & { canceller: Canceller }

type BookingSnapshot = { state: BookingState; paidPence: Pence }

const NOTHING_PAID: ReadonlySet<BookingState> = new Set(['AWAITING_PAYMENT'])

/**
 * Runs the booking machine on the money side of a lesson transition. The lesson's
 * `RefundBooking` effect names the basis; `percentFor` turns the policy basis into a percentage.
 */
const settle = (
  lesson: { from: LessonState; transition: LessonTransition },
  booking: BookingSnapshot,
  percentFor: () => number,
): Result<SettlementPlan, BookingTransitionError> => {
  const refundEffect = lesson.transition.effects.find((e) => e.type === 'RefundBooking')
  const paidPence = NOTHING_PAID.has(booking.state) ? 0 : booking.paidPence
  const percent = refundEffect?.type === 'RefundBooking' && refundEffect.basis === 'full' ? 100 : percentFor()
  const refundPence = refundAmount(paidPence, percent)
  return transitionBooking(booking.state, 'cancel', { paidPence, refundPence, lessonState: lesson.from }).map(
    (bookingTransition) => ({
      lesson: lesson.transition,
      booking: bookingTransition,
      refundPence,
      effects: [...lesson.transition.effects.filter((e) => e.type !== 'RefundBooking'), ...bookingTransition.effects],
    }),
  )
}

export type CancellationError = Forbidden | LessonTransitionError | BookingTransitionError

/** `PUT /api/bookings/{id}/cancel` and `PUT /api/lessons/{id}/cancel`, decided. */
export const planCancellation = (input: {
  actor: Actor
  parties: BookingParties
  lesson: { state: LessonState; start: Date }
  booking: BookingSnapshot
  policy?: readonly RefundTier[]
  now: Date
}): Result<CancellationPlan, CancellationError> =>
  authorizeCancellation(input.actor, input.parties).andThen((canceller) =>
    transitionLesson(input.lesson.state, 'cancel', {})
      .andThen((transition) =>
        settle({ from: input.lesson.state, transition }, input.booking, () =>
          cancellationRefundPercent({
            canceller,
            policy: input.policy ?? DEFAULT_CANCELLATION_POLICY,
            start: input.lesson.start,
            now: input.now,
          }),
        ),
      )
      .map((plan) => ({ ...plan, canceller })),
  )

const refundInFull = (): number => 100

/** `PUT /api/lessons/{id}/decline`: the other party declines; the lesson is cancelled with a full refund. */
export const planRescheduleDecline = (input: {
  actor: Actor
  parties: LessonParties
  lesson: { state: LessonState; proposedBy: LessonSide | null }
  booking: BookingSnapshot
}): Result<SettlementPlan, Forbidden | InvalidStateTransition | LessonTransitionError | BookingTransitionError> =>
  authorizeRescheduleResponse({ ...input, response: 'decline' }).andThen(() =>
    transitionLesson(input.lesson.state, 'decline', {}).andThen((transition) =>
      settle({ from: input.lesson.state, transition }, input.booking, refundInFull),
    ),
  )

/** The expiry worker: a lapsed proposal cancels the lesson with a full refund. */
export const planRescheduleExpiry = (input: {
  lesson: { state: LessonState; expiresAt: Date }
  booking: BookingSnapshot
  now: Date
}): Result<SettlementPlan, LessonTransitionError | BookingTransitionError> =>
  transitionLesson(input.lesson.state, 'expire', { now: input.now, expiresAt: input.lesson.expiresAt }).andThen(
    (transition) => settle({ from: input.lesson.state, transition }, input.booking, refundInFull),
  )

/** The hold worker: an unpaid booking past its hold cancels its lesson; nothing was paid. */
export const planHoldExpiry = (input: {
  lesson: { state: LessonState }
  booking: { state: BookingState; createdAt: Date }
  holdMinutes?: number
  now: Date
}): Result<{ lesson: LessonTransition; booking: BookingTransition; effects: (LessonEffect | BookingEffect)[] }, LessonTransitionError | BookingTransitionError> =>
  transitionBooking(input.booking.state, 'expire_hold', {
    now: input.now,
    createdAt: input.booking.createdAt,
    holdMinutes: input.holdMinutes,
    lessonState: input.lesson.state,
  }).andThen((booking) =>
    transitionLesson(input.lesson.state, 'expire_hold', {}).map((lesson) => ({
      lesson,
      booking,
      effects: [...lesson.effects, ...booking.effects],
    })),
  )
