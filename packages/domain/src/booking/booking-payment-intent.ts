import { ensureCustomer, type CreatePaymentIntentInput } from '../payments'
import type { BookingAggregate, BookingPayment } from './booking-record'
import type { BookingDeps, BookingRepos } from './ports'

/**
 * The PaymentIntent of a booking's payment, whether the booker pays now or a scheduled
 * authorisation runs later off-session: manual capture, and the payment's id as the
 * idempotency key, so a retry never authorises twice.
 */
export async function bookingPaymentIntent(
  deps: Pick<BookingDeps, 'processor' | 'config'>,
  repos: Pick<BookingRepos, 'paymentCustomers'>,
  a: BookingAggregate,
  payment: BookingPayment,
  offSession: boolean,
): Promise<CreatePaymentIntentInput> {
  return {
    customerId: await bookerCustomer(deps, repos, a),
    paymentMethodId: payment.paymentMethodId ?? '',
    amountPence: payment.amountPence,
    captureMethod: 'manual',
    offSession,
    // The return page shows this payment's outcome; processors append their own parameters.
    returnUrl: `${deps.config.paymentReturnUrl}${deps.config.paymentReturnUrl.includes('?') ? '&' : '?'}payment_id=${payment.id}`,
    description: `Lesson ${a.lesson.id}: ${a.subject.title}`,
    metadata: { booking_id: String(a.booking.id), payment_id: String(payment.id) },
    idempotencyKey: `payment-${payment.id}`,
  }
}

/** The booker's processor customer, made on first payment. */
export const bookerCustomer = (
  deps: Pick<BookingDeps, 'processor'>,
  repos: Pick<BookingRepos, 'paymentCustomers'>,
  a: BookingAggregate,
): Promise<string> => ensureCustomer({ processor: deps.processor, customers: repos.paymentCustomers }, a.booker)
