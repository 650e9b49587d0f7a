import { err, ok, type Result } from 'neverthrow'
import { forbidden, isInternal, notFound, type Actor, type Forbidden, type NotFound, type WithoutLocks } from '../shared'
import type { BookingAggregate, BookingPayment } from '../booking'
import type { BookingPaymentsRepos } from './ports'

/**
 * Who may see a payment through the legacy routes: its payer, the lesson's tutor, staff;
 * anyone else is told there is no such payment. Who may change it: the payer and staff.
 */
export async function findVisiblePayment(
  repos: Pick<WithoutLocks<BookingPaymentsRepos>, 'payments' | 'bookings'>,
  actor: Actor,
  paymentId: number,
  purpose: 'read' | 'change',
): Promise<Result<{ payment: BookingPayment; booking: BookingAggregate }, NotFound | Forbidden>> {
  const payment = await repos.payments.findById(paymentId)
  const booking = payment && (await repos.bookings.findById(payment.bookingId))
  if (!payment || !booking) return err(notFound('payment'))
  const payer = payment.userId === actor.id || isInternal(actor.roleId)
  if (!payer && booking.lesson.tutorId !== actor.id) return err(notFound('payment'))
  if (purpose === 'change' && !payer) return err(forbidden("Only the payer changes a payment."))
  return ok({ payment, booking })
}
