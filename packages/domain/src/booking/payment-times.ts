import { DAY_MS } from '../shared'
import type { BookingPayment } from './booking-record'
import type { BookingRepos } from './ports'
import { PAYMENT_SYNC_TOPICS } from './settlement'

/** A card authorisation lasts about seven days, so lessons further out are authorised 6 days before. */
export const AUTHORIZE_LEAD_DAYS = 6

/**
 * A rescheduled lesson moves its payment's authorisation and capture times with it
 * (CONTRACT §14). A card hold lasts about seven days, so a held payment whose lesson moved
 * beyond the authorisation window is released and scheduled again, like a payment made that
 * far ahead: a new row authorised off-session six days before the new start. Otherwise the
 * hold is kept and captured after the new finish; a scheduled row is authorised six days
 * before the new start (at once, when that has passed); one waiting for the customer's bank
 * check has its deadline (the start) moved too (CONTRACT §15).
 */
export async function movePaymentWithLesson(
  repos: Pick<BookingRepos, 'payments' | 'outbox' | 'bookings'>,
  payment: BookingPayment | null,
  times: { start: Date; finish: Date },
  context: { now: Date; actorId: number | null },
): Promise<void> {
  if (!payment) return
  const authorizeAt = new Date(times.start.getTime() - AUTHORIZE_LEAD_DAYS * DAY_MS)
  if (payment.status === 'scheduled') {
    await repos.payments.update(payment.id, { authorizeAt })
    return
  }
  if (payment.status === 'requires_capture' && authorizeAt.getTime() > context.now.getTime()) {
    await repos.payments.update(payment.id, { captureAt: null, retryAt: null })
    await repos.outbox.enqueue({
      kind: 'processor_sync',
      topic: PAYMENT_SYNC_TOPICS.cancel,
      data: { paymentId: payment.id, amountPence: null },
      dedupeKey: `${PAYMENT_SYNC_TOPICS.cancel}:${payment.id}`,
    })
    const later = await repos.payments.insert({
      bookingId: payment.bookingId,
      userId: payment.userId,
      status: 'scheduled',
      amountPence: payment.amountPence,
      paymentMethodId: payment.paymentMethodId,
      authorizeAt,
      captureAt: null,
    })
    await repos.bookings.addEvent(payment.bookingId, 'payment_scheduled', context.actorId, {
      payment_id: later.id,
      released_payment_id: payment.id,
      authorize_at: authorizeAt.toISOString(),
    })
    return
  }
  if ((payment.status === 'requires_action' || payment.status === 'requires_payment_method') && payment.authorizeAt !== null) {
    // An authorisation waiting for the customer's bank check: its deadline is the lesson's start, wherever that went.
    await repos.payments.update(payment.id, { authorizeAt: times.start, captureAt: times.finish })
    return
  }
  if (payment.captureAt !== null) await repos.payments.update(payment.id, { captureAt: times.finish })
}
