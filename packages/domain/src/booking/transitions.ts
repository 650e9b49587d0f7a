import { err, ok, type Result } from 'neverthrow'
import {
  invalidStateTransition,
  selectTransition,
  tableMisuse,
  type InvalidStateTransition,
  type NoContext,
  type Pence,
  type TransitionRow,
} from '../shared'
import type { LessonState } from '../lesson'
import type { BookingState } from './booking-state'
import { bookingHoldNotExpired, type BookingHoldNotExpired } from './errors'
import { holdExpiresAt } from './hold'

export type BookingTrigger = 'create' | 'pay' | 'capture' | 'cancel' | 'expire_hold'
export type BookingGuard =
  | 'manual_capture'
  | 'immediate_capture'
  | 'full_refund'
  | 'partial_refund'
  | 'lesson_open'
  | 'hold_elapsed'

export type BookingEffectSpec =
  | { type: 'Refund' }
  | { type: 'CapturePayment' }
  | { type: 'VoidAuthorization' }
  | { type: 'CancelPaymentIntent' }

/**
 * What the payments adapter must do. A refund of a captured payment is `Refund`; an
 * authorisation that was never captured is settled instead: released whole (`VoidAuthorization`)
 * or captured in part, keeping what the customer is not refunded (`CapturePayment`).
 */
export type BookingEffect =
  | { type: 'Refund'; amountPence: Pence }
  | { type: 'CapturePayment'; amountPence: Pence }
  | { type: 'VoidAuthorization' }
  | { type: 'CancelPaymentIntent' }

/** `lessonState` is the lesson's state before this change: a cancelled lesson closes its booking. */
export type BookingContexts = {
  create: NoContext
  pay: { capture: 'manual' | 'immediate'; lessonState: LessonState }
  capture: NoContext
  cancel: { paidPence: Pence; refundPence: Pence; lessonState: LessonState }
  expire_hold: { now: Date; createdAt: Date; holdMinutes?: number; lessonState: LessonState }
}

type BookingRow = TransitionRow<BookingState | 'NEW', BookingTrigger, BookingGuard, BookingEffectSpec, BookingState>

/**
 * SPEC.md "Booking state", row by row, with the conditions CONTRACT.md §6 decides.
 *
 * There is no CANCELLED booking state: a booking cancelled with nothing charged (an unpaid
 * hold cancelled or lapsed, a saved card never authorised) answers REFUNDED with nothing
 * refunded, like every cancellation, its lesson CANCELLED (CONTRACT §17): no cancelled
 * booking stays AWAITING_PAYMENT or REQUIRES_CAPTURE. REFUNDED and PARTIAL_REFUNDED are
 * final: no row leaves them.
 */
export const BOOKING_TRANSITIONS: readonly BookingRow[] = [
  { from: 'NEW', trigger: 'create', to: 'AWAITING_PAYMENT', effects: [] },
  { from: 'AWAITING_PAYMENT', trigger: 'pay', guard: 'manual_capture', to: 'REQUIRES_CAPTURE', effects: [] },
  { from: 'AWAITING_PAYMENT', trigger: 'pay', guard: 'immediate_capture', to: 'PAYED', effects: [] },
  { from: 'REQUIRES_CAPTURE', trigger: 'capture', to: 'PAYED', effects: [] },
  { from: 'PAYED', trigger: 'cancel', guard: 'full_refund', to: 'REFUNDED', effects: [{ type: 'Refund' }] },
  { from: 'PAYED', trigger: 'cancel', guard: 'partial_refund', to: 'PARTIAL_REFUNDED', effects: [{ type: 'Refund' }] },
  {
    from: 'REQUIRES_CAPTURE',
    trigger: 'cancel',
    guard: 'full_refund',
    to: 'REFUNDED',
    effects: [{ type: 'VoidAuthorization' }],
  },
  {
    from: 'REQUIRES_CAPTURE',
    trigger: 'cancel',
    guard: 'partial_refund',
    to: 'PARTIAL_REFUNDED',
    effects: [{ type: 'CapturePayment' }],
  },
  {
    from: 'AWAITING_PAYMENT',
    trigger: 'cancel',
    guard: 'lesson_open',
    to: 'REFUNDED',
    effects: [{ type: 'CancelPaymentIntent' }],
  },
  {
    from: 'AWAITING_PAYMENT',
    trigger: 'expire_hold',
    guard: 'hold_elapsed',
    to: 'REFUNDED',
    effects: [{ type: 'CancelPaymentIntent' }],
  },
]

type BookingInput = { [K in BookingTrigger]: { trigger: K; context: BookingContexts[K] } }[BookingTrigger]

export type BookingTransitionError = InvalidStateTransition | BookingHoldNotExpired

const closedUnpaid = (trigger: BookingTrigger): InvalidStateTransition =>
  invalidStateTransition('booking', 'AWAITING_PAYMENT', trigger)

const whenOpen = (lessonState: LessonState, trigger: BookingTrigger, holds: boolean): Result<void, BookingTransitionError> =>
  lessonState !== 'CANCELLED' && holds ? ok(undefined) : err(closedUnpaid(trigger))

const assertRefundWithinPayment = (c: BookingContexts['cancel']): void => {
  if (c.refundPence < 0 || c.refundPence > c.paidPence) throw new RangeError('a refund lies between 0 and what was paid')
}

const checkGuard = (guard: BookingGuard, input: BookingInput): Result<void, BookingTransitionError> => {
  switch (guard) {
    case 'manual_capture':
    case 'immediate_capture':
      if (input.trigger !== 'pay') return tableMisuse('booking', guard, input.trigger)
      return whenOpen(input.context.lessonState, 'pay', (input.context.capture === 'manual') === (guard === 'manual_capture'))
    case 'full_refund':
    case 'partial_refund': {
      if (input.trigger !== 'cancel') return tableMisuse('booking', guard, input.trigger)
      assertRefundWithinPayment(input.context)
      const full = input.context.refundPence === input.context.paidPence
      return full === (guard === 'full_refund') ? ok(undefined) : err(invalidStateTransition('booking', guard, 'cancel'))
    }
    case 'lesson_open':
      if (input.trigger !== 'cancel') return tableMisuse('booking', guard, input.trigger)
      return whenOpen(input.context.lessonState, 'cancel', true)
    case 'hold_elapsed': {
      if (input.trigger !== 'expire_hold') return tableMisuse('booking', guard, input.trigger)
      const c = input.context
      if (c.lessonState === 'CANCELLED') return err(closedUnpaid('expire_hold'))
      const expiresAt = holdExpiresAt(c.createdAt, c.holdMinutes)
      return c.now.getTime() >= expiresAt.getTime() ? ok(undefined) : err(bookingHoldNotExpired(expiresAt))
    }
  }
}

const materialize = (spec: BookingEffectSpec, input: BookingInput): BookingEffect[] => {
  switch (spec.type) {
    case 'VoidAuthorization':
    case 'CancelPaymentIntent':
      return [spec]
    case 'Refund':
    case 'CapturePayment': {
      if (input.trigger !== 'cancel') return tableMisuse('booking', spec.type, input.trigger)
      const { paidPence, refundPence } = input.context
      const amountPence = spec.type === 'Refund' ? refundPence : paidPence - refundPence
      // A refund of nothing is no processor call; the state still records the cancellation.
      return amountPence > 0 ? [{ type: spec.type, amountPence }] : []
    }
  }
}

export type BookingTransition = { to: BookingState; effects: BookingEffect[] }

export const transitionBooking = <T extends BookingTrigger>(
  from: BookingState | 'NEW',
  trigger: T,
  context: BookingContexts[T],
): Result<BookingTransition, BookingTransitionError> => {
  // TypeScript cannot correlate a generic trigger with its context; the signature already has.
  const input = { trigger, context } as BookingInput
  return selectTransition('booking', BOOKING_TRANSITIONS, from, trigger, (guard) => checkGuard(guard, input)).map(
    (row) => ({ to: row.to, effects: row.effects.flatMap((spec) => materialize(spec, input)) }),
  )
}
