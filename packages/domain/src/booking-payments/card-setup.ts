import { announceIfPaid, AUTHORIZE_LEAD_DAYS } from '../booking'
import { DAY_MS } from '../shared'
import { mayCarryBooking } from './attempt-answer'
import type { BookingPaymentsRepos } from './ports'

/**
 * A far lesson's card setup that waited for the customer (3-D Secure), now confirmed at the
 * processor (the return page's refresh, or `setup_intent.succeeded`): the attempt is scheduled
 * for its authorisation (start − 6 days) and the booking committed, if the attempt may still
 * carry it (not superseded, the hold open); otherwise it is closed (a setup holds nothing).
 * Under the booking's lock; false when the attempt no longer waits (another call recorded it).
 */
export async function commitConfirmedSetup(repos: BookingPaymentsRepos, bookingId: number, paymentId: number, paymentMethodId: string | null, now: Date): Promise<boolean> {
  const a = await repos.bookings.lockById(bookingId)
  const payments = a ? await repos.payments.listByBooking(a.booking.id) : []
  const row = payments.find((p) => p.id === paymentId)
  if (!a || !row || row.status !== 'requires_action' || row.intentId !== null) return false
  const open = a.booking.holdExpiresAt === null || a.booking.holdExpiresAt.getTime() > now.getTime()
  if (!open || !mayCarryBooking(payments, row, { state: a.booking.state, lessonState: a.lesson.state })) {
    await repos.payments.update(row.id, { status: 'canceled' })
    return true
  }
  const authorizeAt = new Date(a.lesson.start.getTime() - AUTHORIZE_LEAD_DAYS * DAY_MS)
  await repos.payments.update(row.id, { status: 'scheduled', authorizeAt, paymentMethodId: paymentMethodId ?? row.paymentMethodId })
  await repos.bookings.updateBooking(a.booking.id, { state: 'REQUIRES_CAPTURE', holdExpiresAt: null })
  await announceIfPaid(repos, a, 'REQUIRES_CAPTURE', now)
  await repos.bookings.addEvent(a.booking.id, 'payment_scheduled', null, { payment_id: row.id, authorize_at: authorizeAt.toISOString() })
  return true
}
