import { ensureCustomer, type CreatePaymentIntentInput } from '../payments'
import type { BookingAggregate, BookingPayment, PaymentRouting } from '../booking'
import type { BookingPaymentsDeps, BookingPaymentsRepos } from './ports'
import { needsSeparateTransfer, routeBookingPayment } from './tutor-share'

/**
 * The PaymentIntent of a booking's payment, whether the booker pays now or a scheduled
 * authorisation runs later off-session: manual capture, and the payment's id as the
 * idempotency key (off-session, with the card), so a retry never authorises twice. Where the money goes is fixed on the
 * payment row the first time (a retry with the same key must ask the same thing): the
 * tutor's connected account as destination with the platform's fee, or the platform alone
 * with the tutor's share recorded as a waiting transfer.
 */
export async function bookingPaymentIntent(
  deps: Pick<BookingPaymentsDeps, 'processor' | 'config'>,
  repos: Pick<BookingPaymentsRepos, 'paymentCustomers' | 'payoutAccounts' | 'payments' | 'tutorTransfers'>,
  a: BookingAggregate,
  payment: BookingPayment,
  offSession: boolean,
): Promise<CreatePaymentIntentInput> {
  const routing = payment.routing ?? (await fixRouting(repos, a, payment))
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
    // Off-session, the key names the card: a card changed after a failed authorisation asks anew
    // (a processor refuses a key reused with other parameters), a retry of the same card replays.
    idempotencyKey: offSession ? `payment-${payment.id}:off-session:${payment.paymentMethodId ?? ''}` : `payment-${payment.id}`,
    destination: routing.destinationAccountId ? { accountId: routing.destinationAccountId, applicationFeePence: routing.applicationFeePence } : null,
    transferGroup: routing.transferGroup,
  }
}

/**
 * Where a payment's money goes, fixed on its row (as `decided`, when a call already asked the
 * processor for it); a tutor's share the charge does not carry waits as a transfer.
 */
export async function fixRouting(
  repos: Pick<BookingPaymentsRepos, 'payoutAccounts' | 'payments' | 'tutorTransfers'>,
  a: BookingAggregate,
  payment: BookingPayment,
  decided?: PaymentRouting,
): Promise<PaymentRouting> {
  const routing = decided ?? routeBookingPayment(a, payment.amountPence, await repos.payoutAccounts.ofUser(a.lesson.tutorId))
  await repos.payments.update(payment.id, { routing })
  if (needsSeparateTransfer(routing, payment.amountPence, a.booking.lessonPricePence)) {
    await repos.tutorTransfers.insertWaiting({ paymentId: payment.id, tutorId: a.lesson.tutorId, transferGroup: routing.transferGroup })
  }
  return routing
}

/** The booker's processor customer, made on first payment. */
export const bookerCustomer = (
  deps: Pick<BookingPaymentsDeps, 'processor'>,
  repos: Pick<BookingPaymentsRepos, 'paymentCustomers'>,
  a: BookingAggregate,
): Promise<string> => ensureCustomer({ processor: deps.processor, customers: repos.paymentCustomers }, a.booker)
