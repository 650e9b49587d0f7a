import { ok, ResultAsync } from 'neverthrow'
import type { PaymentIntentStatus } from '../payments'
import type { BookingState } from './booking-state'
import type { BookingDeps, BookingPaymentState, BookingRepos, PaymentChange, PaymentRecord } from './ports'
import { releasePayment } from './settlement'
import { transitionBooking } from './transitions'

export const PAYMENT_EVENT_SOURCE = 'payments'

export const PAYMENT_EVENT_TYPES = [
  'payment_intent.succeeded',
  'payment_intent.amount_capturable_updated',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
  'charge.refunded',
] as const
export type PaymentEventType = (typeof PAYMENT_EVENT_TYPES)[number]

/** A processor event, reduced to what the payments flow reads. */
export type PaymentEvent = {
  id: string
  type: string
  /** A payment intent's state (`payment_intent.*`). */
  intent?: { id: string; status: PaymentIntentStatus; amountReceivedPence: number; lastError: string | null }
  /** A charge's refund total (`charge.refunded`). */
  refund?: { paymentIntentId: string; amountRefundedPence: number }
  /** The payment row named in the processor's metadata (`payment_id`), which every intent made here carries. */
  paymentId?: number | null
}

export type PaymentEventOutcome =
  | { outcome: 'handled'; bookingState: BookingState | null }
  | { outcome: 'duplicate' }
  | { outcome: 'ignored'; reason: 'unknown_type' | 'unknown_payment' }

/**
 * The payment webhook. The event id is remembered in the transaction of the change, so a
 * repeat changes nothing. The payment row mirrors the processor; the booking moves through
 * its machine: an authorisation held is `pay` (manual capture, to REQUIRES_CAPTURE), money
 * taken is `capture` from REQUIRES_CAPTURE or `pay` (immediate, to PAYED) from
 * AWAITING_PAYMENT. A booking the machine won't move (already there, cancelled unpaid, or
 * refunded) keeps its state; the payment row and the timeline still record the event.
 * Failures, cancellations and refunds leave the booking state to the flows that cause them.
 */
export function recordPaymentEvent(deps: Pick<BookingDeps, 'uow' | 'clock'>, event: PaymentEvent): ResultAsync<PaymentEventOutcome, never> {
  return new ResultAsync(deps.uow.run((repos) => apply(repos, deps.clock.now(), event).then((outcome) => ok(outcome))))
}

async function apply(repos: BookingRepos, now: Date, event: PaymentEvent): Promise<PaymentEventOutcome> {
  const fresh = await repos.webhookEvents.record({ source: PAYMENT_EVENT_SOURCE, eventId: event.id, type: event.type, receivedAt: now })
  if (!fresh) return { outcome: 'duplicate' }
  const type = PAYMENT_EVENT_TYPES.find((t) => t === event.type)
  const intentId = event.intent?.id ?? event.refund?.paymentIntentId
  if (!type || !intentId) return { outcome: 'ignored', reason: 'unknown_type' }

  const payment = await locatePayment(repos, event.paymentId ?? null, intentId)
  if (!payment) return { outcome: 'ignored', reason: 'unknown_payment' }
  await repos.paymentEvents.update(payment.id, { ...paymentChange(type, event, payment, now), ...(payment.intentId === null ? { intentId } : {}) })

  const booking = await repos.paymentEvents.lockBooking(payment.bookingId)
  if (!booking) return { outcome: 'handled', bookingState: null }
  const superseded = await releaseIfSuperseded(repos, { type, id: event.id }, payment)
  const to = superseded ? booking.state : bookingStateAfter(type, booking)
  if (to !== booking.state) await repos.paymentEvents.setBookingState(booking.id, to, now)
  await repos.paymentEvents.addBookingEvent({
    bookingId: booking.id,
    kind: `payment.${type.split('.')[1]}`,
    data: { event_id: event.id, payment_intent: intentId, from: booking.state, to, ...(event.refund ? { refunded_pence: event.refund.amountRefundedPence } : {}) },
    at: now,
  })
  return { outcome: 'handled', bookingState: to }
}

/**
 * By the payment id in the metadata first: it finds a payment whose creating call never
 * answered (no intent id recorded yet). The intent id, when the row already has another one.
 */
async function locatePayment(repos: BookingRepos, paymentId: number | null, intentId: string): Promise<PaymentRecord | undefined> {
  if (paymentId !== null) {
    const named = await repos.paymentEvents.lockById(paymentId)
    if (named && (named.intentId === null || named.intentId === intentId)) return named
  }
  return repos.paymentEvents.lockByIntentId(intentId)
}

/**
 * An attempt that holds or took money after it stopped counting is released at the processor
 * and never moves the booking: one released here already (superseded by a new attempt, or
 * its lesson cancelled or moved) before its answer was known or its 3-D Secure step was
 * finished, or one still waiting for the booker when a newer attempt started. The payment a
 * settlement charged (held or captured before the event) is the settlement's own business.
 */
async function releaseIfSuperseded(repos: BookingRepos, event: { type: PaymentEventType; id: string }, before: PaymentRecord): Promise<boolean> {
  if (event.type !== 'payment_intent.amount_capturable_updated' && event.type !== 'payment_intent.succeeded') return false
  const attempts = await repos.payments.listByBooking(before.bookingId)
  const counted = before.status === 'requires_capture' || before.status === 'succeeded'
  const newer = attempts.some((p) => p.id > before.id)
  if (before.status !== 'canceled' && (counted || !newer)) return false
  const now = attempts.find((p) => p.id === before.id)
  if (now) await releasePayment(repos, now, event.id)
  return true
}

function paymentChange(type: PaymentEventType, event: PaymentEvent, payment: PaymentRecord, now: Date): PaymentChange {
  if (type === 'charge.refunded') {
    // Refund totals only grow; an older event arriving late must not shrink them.
    return { refundedPence: Math.max(payment.refundedPence, event.refund!.amountRefundedPence), at: now }
  }
  const intent = event.intent!
  return {
    status: intent.status,
    capturedPence: Math.max(payment.capturedPence, intent.amountReceivedPence),
    lastError: type === 'payment_intent.payment_failed' ? intent.lastError ?? 'The payment failed.' : null,
    at: now,
  }
}

function bookingStateAfter(type: PaymentEventType, booking: BookingPaymentState): BookingState {
  const step =
    type === 'payment_intent.amount_capturable_updated'
      ? transitionBooking(booking.state, 'pay', { capture: 'manual', lessonState: booking.lessonState })
      : type === 'payment_intent.succeeded'
        ? booking.state === 'REQUIRES_CAPTURE'
          ? transitionBooking(booking.state, 'capture', {})
          : transitionBooking(booking.state, 'pay', { capture: 'immediate', lessonState: booking.lessonState })
        : undefined
  return step && step.isOk() ? step.value.to : booking.state
}
