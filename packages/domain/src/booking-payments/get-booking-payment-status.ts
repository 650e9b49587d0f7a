import { err, ResultAsync } from 'neverthrow'
import { notFound, type NotFound } from '../shared'
import { getPaymentStatus, type PaymentStatusView } from './get-payment-status'
import type { BookingPaymentsDeps } from './ports'

/**
 * The status of a booking's latest payment, for the page a customer returns to from the
 * bank's check of a card set up for a later lesson (the set-up is made before the payment
 * row, so the processor knows the booking, not the payment). Status only, as for anyone
 * holding a payment id.
 */
export function getBookingPaymentStatus(deps: Pick<BookingPaymentsDeps, 'uow' | 'processor' | 'clock'>, bookingId: number): ResultAsync<PaymentStatusView, NotFound> {
  return ResultAsync.fromSafePromise(deps.uow.repos.bookings.findById(bookingId)).andThen((a) =>
    a?.payment ? getPaymentStatus(deps, undefined, a.payment.id) : err(notFound('payment')),
  )
}
