import type { PaymentIntent } from '../payments'
import { announceIfPaid, isLivePayment, PAYMENT_SYNC_TOPICS, releaseAttempt, transitionBooking, type BookingAggregate, type BookingPayment, type BookingState } from '../booking'
import type { LessonState } from '../lesson'
import type { BookingPaymentsRepos } from './ports'

/**
 * Whether an attempt that now holds money may carry its booking (CONTRACT §15: a paid booking
 * rests on exactly one live payment): it was not released, no newer attempt superseded it,
 * nothing else backs the booking, and the booking is still to pay with its lesson open.
 * The caller holds the booking's lock, so two answers never both pass.
 */
export const mayCarryBooking = (
  payments: readonly BookingPayment[],
  row: Pick<BookingPayment, 'id' | 'status'>,
  booking: { state: BookingState; lessonState: LessonState },
): boolean =>
  row.status !== 'canceled' &&
  !payments.some((p) => p.id > row.id) &&
  !payments.some((p) => p.id !== row.id && isLivePayment(p)) &&
  booking.state === 'AWAITING_PAYMENT' &&
  booking.lessonState !== 'CANCELLED'

export type AttemptVerdict = 'counted' | 'released' | 'waiting'

/**
 * The processor's answer about one attempt (its creating call, or the refresh after the bank's
 * check), recorded under the booking's lock: an attempt holding money either carries the
 * booking (REQUIRES_CAPTURE, or PAYED when captured) or, when it may not (released by a
 * DELETE or a lapse while the call was in flight, superseded by a newer attempt, the booking
 * paid or closed meanwhile), is released whole at the processor and moves nothing. A
 * released row keeps saying canceled. An answer still waiting for the customer is stored.
 */
export async function recordAttemptAnswer(
  repos: BookingPaymentsRepos,
  a: BookingAggregate,
  paymentId: number,
  pi: Pick<PaymentIntent, 'id' | 'status' | 'amountReceivedPence' | 'clientSecret' | 'redirectUrl'>,
  context: { actorId: number | null; payable: boolean; now: Date },
): Promise<AttemptVerdict> {
  const payments = await repos.payments.listByBooking(a.booking.id)
  const row = payments.find((p) => p.id === paymentId)
  if (!row) throw new Error('an attempt vanished from its booking')
  const holds = pi.status === 'requires_capture' || pi.status === 'succeeded'
  const answer = { intentId: pi.id, clientSecret: pi.clientSecret, redirectUrl: pi.redirectUrl, capturedPence: pi.amountReceivedPence }
  if (row.voidedIntentId === pi.id && row.intentId !== pi.id) {
    // The intent a retry gave up (a pay's replay of the unanswered first call, answered late):
    // its cancel is queued already, so whatever it says, it never carries the payment.
    await releaseOtherIntent(repos, row.id, pi.id)
    await repos.bookings.addEvent(a.booking.id, 'payment_released', context.actorId, { payment_id: row.id, reason: 'superseded' })
    return 'released'
  }
  if (row.intentId !== null && row.intentId !== pi.id) {
    // Two calls for one payment (two card changes at once): it keeps one intent, the one holding
    // money, else the one recorded first, and the other goes back (held, or waiting for a 3-D
    // Secure step that would hold it).
    const rowHolds = row.status === 'requires_capture' || row.status === 'succeeded'
    const other = rowHolds || !holds ? pi.id : row.intentId
    await releaseOtherIntent(repos, row.id, other)
    if (other === pi.id) {
      await repos.bookings.addEvent(a.booking.id, 'payment_released', context.actorId, { payment_id: row.id, reason: 'superseded' })
      return 'released'
    }
  }
  if (row.status === 'succeeded' && row.intentId === pi.id) {
    // Captured on this intent already: the answer of a second call for the attempt (two pays of
    // one card share it) came after the capture and says nothing new. Released as late, it
    // refunded the payment the booking rests on, and the tutor's transfer with it.
    return 'counted'
  }
  if (holds && isLivePayment(row) && row.status !== 'succeeded') {
    // The booking's own off-session authorisation, confirmed by the customer before its deadline.
    await repos.payments.update(row.id, { ...answer, status: pi.status, authorizeAt: null, captureAt: row.captureAt ?? a.lesson.finish })
    await repos.bookings.addEvent(a.booking.id, 'authorized', context.actorId, { payment_id: row.id })
    return 'counted'
  }
  if (holds && !(context.payable && mayCarryBooking(payments, row, { state: a.booking.state, lessonState: a.lesson.state }))) {
    await repos.payments.update(row.id, { ...answer, status: row.status === 'canceled' ? 'canceled' : pi.status })
    await releaseAttempt(repos, { ...row, ...answer, status: pi.status }, `late:${pi.id}`)
    await repos.bookings.addEvent(a.booking.id, 'payment_released', context.actorId, { payment_id: row.id, reason: 'superseded' })
    return 'released'
  }
  await repos.payments.update(row.id, { ...answer, status: row.status === 'canceled' ? 'canceled' : pi.status })
  // Closed before the processor made it (a DELETE found no intent to cancel): the intent still
  // waiting for the customer is cancelled now, or a bank check passed later would hold money
  // that an event about it, the row canceled with its intent known, treats as already undone.
  if (row.status === 'canceled' && pi.status !== 'canceled') await releaseAttempt(repos, { ...row, ...answer, status: pi.status }, `late:${pi.id}`)
  if (!holds || row.status === 'canceled') return 'waiting'
  const moved = transitionBooking(a.booking.state, 'pay', { capture: pi.status === 'succeeded' ? 'immediate' : 'manual', lessonState: a.lesson.state })
  if (moved.isErr()) throw new Error('a payable booking refused pay')
  await repos.bookings.updateBooking(a.booking.id, { state: moved.value.to, holdExpiresAt: null })
  await announceIfPaid(repos, a, moved.value.to, context.now)
  await repos.bookings.addEvent(a.booking.id, pi.status === 'succeeded' ? 'paid' : 'authorized', context.actorId, { payment_id: row.id })
  return 'counted'
}

/** Cancels an intent made for a payment that is not (or no longer) the payment's: named, so the outbox leaves the payment's own alone. */
async function releaseOtherIntent(repos: Pick<BookingPaymentsRepos, 'outbox'>, paymentId: number, intentId: string): Promise<void> {
  const topic = PAYMENT_SYNC_TOPICS.cancel
  await repos.outbox.enqueue({ kind: 'processor_sync', topic, data: { paymentId, amountPence: null, intentId }, dedupeKey: `${topic}:${paymentId}:${intentId}:other` })
}

/**
 * An intent an unanswered call made, given up by its payment: cancelled through the outbox and
 * remembered on the row, so a late answer or event of it never makes the booking rest on it.
 */
export async function voidGivenUpIntent(repos: Pick<BookingPaymentsRepos, 'outbox' | 'payments'>, paymentId: number, intentId: string): Promise<void> {
  await releaseOtherIntent(repos, paymentId, intentId)
  await repos.payments.update(paymentId, { voidedIntentId: intentId })
}
