import { ok } from 'neverthrow'
import { cancelUntakenLesson, lessonEmailData, PAYMENT_SYNC_TOPICS, type BookingAggregate, type BookingPayment } from '../booking'
import type { BookingPaymentsDeps, BookingPaymentsRepos } from './ports'

/**
 * A scheduled off-session authorisation the bank wants the customer to confirm
 * (`authentication_required`): the payment keeps the processor's intent, which the customer
 * can confirm on session with its client secret, and waits for them until the lesson's
 * start (then `cancelUnauthenticatedLessons` cancels it). The booker is emailed a link to
 * complete it; once confirmed, the webhook marks it authorised and it is captured after the
 * lesson like any other.
 */
export async function awaitCustomerAuthentication(
  deps: Pick<BookingPaymentsDeps, 'processor' | 'config'>,
  repos: BookingPaymentsRepos,
  a: BookingAggregate,
  payment: BookingPayment,
  failure: { paymentIntentId: string; reason: string },
): Promise<void> {
  const intent = await deps.processor.retrievePaymentIntent(failure.paymentIntentId)
  await repos.payments.update(payment.id, {
    intentId: intent.id,
    status: intent.status === 'requires_action' ? 'requires_action' : 'requires_payment_method',
    clientSecret: intent.clientSecret,
    lastError: failure.reason,
    // The deadline: unanswered at the start, the lesson is cancelled.
    authorizeAt: a.lesson.start,
    captureAt: a.lesson.finish,
  })
  const url = `${deps.config.paymentActionUrl}${deps.config.paymentActionUrl.includes('?') ? '&' : '?'}payment_id=${payment.id}`
  await repos.outbox.enqueue({
    kind: 'email',
    template: 'payment_authentication_required',
    to: a.booker.email,
    data: lessonEmailData(a, { firstname: a.booker.firstname, paymentId: payment.id, actionUrl: url }),
    dedupeKey: `payment_authentication_required:${payment.id}:${intent.id}`,
  })
  await repos.bookings.addEvent(a.booking.id, 'payment_authentication_required', null, { payment_id: payment.id })
}

/**
 * The deadline worker (with `payments:capture-due`): a lesson whose off-session
 * authorisation still waits for the customer at its start is cancelled, nothing taken, both
 * parties emailed; the intent waiting at the processor is cancelled through the outbox.
 */
export async function cancelUnauthenticatedLessons(deps: Pick<BookingPaymentsDeps, 'uow' | 'clock'>, limit = 100): Promise<{ cancelled: number }> {
  let cancelled = 0
  for (let i = 0; i < limit; i++) {
    const done = await deps.uow.run(async (repos) => {
      const now = deps.clock.now()
      const p = await repos.payments.claimDue('authentication', now)
      if (!p) return ok(false)
      const a = await repos.bookings.lockById(p.bookingId)
      await repos.payments.update(p.id, { authorizeAt: null, captureAt: null })
      if (p.intentId) {
        await repos.outbox.enqueue({ kind: 'processor_sync', topic: PAYMENT_SYNC_TOPICS.cancel, data: { paymentId: p.id, amountPence: null }, dedupeKey: `${PAYMENT_SYNC_TOPICS.cancel}:${p.id}` })
      }
      if (!a || a.lesson.state === 'CANCELLED' || a.booking.state !== 'REQUIRES_CAPTURE') return ok(true)
      await cancelUntakenLesson(repos, a, now, 'payment_authentication_expired')
      cancelled++
      return ok(true)
    })
    if (!done._unsafeUnwrap()) break
  }
  return { cancelled }
}
