import { ok } from 'neverthrow'
import { transitionLesson } from '../lesson'
import { bookingPaymentIntent } from './booking-payment-intent'
import { awaitCustomerAuthentication } from './payment-authentication'
import type { BookingDeps } from './ports'
import { applySettlement } from './settlement'
import { transitionBooking } from './transitions'

export type DuePaymentsReport = { authorized: number; failed: number; captured: number; skipped: number }

/**
 * `pnpm cli payments:capture-due` and its periodic job. Each row is claimed with FOR UPDATE
 * SKIP LOCKED inside its own transaction and the processor is called while the claim is
 * held, with the row's idempotency key: several instances may run this at once, and each
 * payment is authorised and captured once.
 *
 * 1. Scheduled payments whose `authorize_at` came: a manual-capture intent off-session. A
 *    decline cancels the lesson (nothing was taken) and tells both parties; a bank that wants
 *    the customer (`authentication_required`) gets them asked by email, until the start.
 * 2. Authorised payments whose lesson finished (`capture_at`): captured in full; the booking
 *    becomes PAYED.
 */
export async function runDuePayments(deps: Pick<BookingDeps, 'uow' | 'clock' | 'processor' | 'config'>, limit = 100): Promise<DuePaymentsReport> {
  const report: DuePaymentsReport = { authorized: 0, failed: 0, captured: 0, skipped: 0 }
  for (let i = 0; i < limit; i++) {
    const done = await deps.uow.run(async (repos) => {
      const now = deps.clock.now()
      const p = await repos.payments.claimDue('authorize', now)
      if (!p) return ok(false)
      const a = await repos.bookings.lockById(p.bookingId)
      if (!a || a.lesson.state === 'CANCELLED' || a.booking.state !== 'REQUIRES_CAPTURE') {
        await repos.payments.update(p.id, { status: 'canceled', authorizeAt: null })
        report.skipped++
        return ok(true)
      }
      const intent = await deps.processor.createPaymentIntent(await bookingPaymentIntent(deps, repos, a, p, true))
      if (intent.isOk() && intent.value.status === 'requires_capture') {
        await repos.payments.update(p.id, { intentId: intent.value.id, status: 'requires_capture', clientSecret: intent.value.clientSecret, captureAt: a.lesson.finish })
        await repos.bookings.addEvent(a.booking.id, 'authorized', null, { payment_id: p.id })
        report.authorized++
        return ok(true)
      }
      if (intent.isErr() && intent.error.code === 'authentication_required' && intent.error.paymentIntentId) {
        // The bank wants the customer: they are asked to confirm it before the lesson starts.
        await awaitCustomerAuthentication(deps, repos, a, p, { paymentIntentId: intent.error.paymentIntentId, reason: intent.error.reason })
        report.failed++
        return ok(true)
      }
      const reason = intent.isErr() ? intent.error.reason : `the processor answered ${intent.value.status}`
      await repos.payments.update(p.id, { status: 'requires_payment_method', lastError: reason, authorizeAt: null, intentId: intent.isOk() ? intent.value.id : null })
      const lesson = transitionLesson(a.lesson.state, 'cancel', {})
      const booking = transitionBooking(a.booking.state, 'cancel', { paidPence: 0, refundPence: 0, lessonState: a.lesson.state })
      if (lesson.isErr() || booking.isErr()) throw new Error('an authorised lesson refused cancel')
      await applySettlement(
        repos,
        { ...a, payment: null },
        { lesson: lesson.value, booking: booking.value, refundPence: 0, effects: lesson.value.effects.filter((e) => e.type === 'QueueEmail') },
        { actorId: null, now, event: 'payment_authorization_failed' },
      )
      report.failed++
      return ok(true)
    })
    if (!done._unsafeUnwrap()) break
  }
  for (let i = 0; i < limit; i++) {
    const done = await deps.uow.run(async (repos) => {
      const now = deps.clock.now()
      const p = await repos.payments.claimDue('capture', now)
      if (!p) return ok(false)
      const a = await repos.bookings.lockById(p.bookingId)
      if (!a || !p.intentId || a.lesson.state === 'CANCELLED' || a.booking.state !== 'REQUIRES_CAPTURE') {
        // Cancelled meanwhile: the cancellation's own processor call settles the money.
        await repos.payments.update(p.id, { captureAt: null })
        report.skipped++
        return ok(true)
      }
      const pi = await deps.processor.capturePaymentIntent(p.intentId, { idempotencyKey: `capture-${p.id}` })
      await repos.payments.update(p.id, { status: pi.status, capturedPence: pi.amountReceivedPence, captureAt: null })
      const moved = transitionBooking(a.booking.state, 'capture', {})
      if (moved.isErr()) throw new Error('REQUIRES_CAPTURE refused capture')
      await repos.bookings.updateBooking(a.booking.id, { state: moved.value.to })
      await repos.bookings.addEvent(a.booking.id, 'captured', null, { payment_id: p.id })
      report.captured++
      return ok(true)
    })
    if (!done._unsafeUnwrap()) break
  }
  return report
}
