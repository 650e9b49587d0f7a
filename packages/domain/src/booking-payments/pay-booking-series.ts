import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { forbidden, invalidStateTransition, isInternal, notFound, type Actor } from '../shared'
import { maySeeBooking, type BookingAggregate } from '../booking'
import type { BookingPaymentsDeps } from './ports'
import { payBooking, payWithSavedCard, type PayBookingError, type PayOutcome } from './pay-booking'

export type PayBookingSeriesInput = { seriesId: number; paymentMethod: string | null; coupon: string | null }

const committed = (a: BookingAggregate): boolean => a.booking.state === 'REQUIRES_CAPTURE' || a.booking.state === 'PAYED'

/**
 * `POST /api/payments/pay` with `booking_series_id` (CONTRACT §16): one payment step for the
 * whole series, each week paid as a lone booking is. Weeks go in order: the first still
 * unpaid is paid as `payBooking` pays (a card hold now, or for a lesson more than six days out
 * the card set up and its authorisation scheduled), and once a week rests on a card set up
 * for later, every later week is scheduled on that saved card with no setup of its own, each
 * authorised and captured by the due-payments job at its own time. The answer is the first
 * week's payment. A week that still needs the customer (3-D Secure) or was declined stops the
 * step: the weeks after it stay on their hold, and paying the series again goes on from
 * there. A coupon applies to the first week paid. Weeks cancelled are passed over.
 */
export function payBookingSeries(
  deps: Pick<BookingPaymentsDeps, 'uow' | 'clock' | 'processor' | 'config'>,
  actor: Actor,
  input: PayBookingSeriesInput,
): ResultAsync<PayOutcome, PayBookingError> {
  return new ResultAsync(run(deps, actor, input))
}

async function run(
  deps: Pick<BookingPaymentsDeps, 'uow' | 'clock' | 'processor' | 'config'>,
  actor: Actor,
  input: PayBookingSeriesInput,
): Promise<Result<PayOutcome, PayBookingError>> {
  const series = await deps.uow.repos.bookings.findSeries(input.seriesId)
  if (!series) return err(notFound('booking series'))
  // Who pays, before any week is looked at further: the weeks share their booker and tutor.
  const first = series.bookingIds[0] === undefined ? undefined : await deps.uow.repos.bookings.findById(series.bookingIds[0])
  if (!first || !maySeeBooking(actor, first)) return err(notFound('booking series'))
  if (first.booking.userId !== actor.id && !isInternal(actor.roleId)) return err(forbidden('Only the booker pays for a booking.'))
  let answer: PayOutcome | undefined
  // A card set up for off-session use (a week more than six days out was paid) serves every later week.
  let savedCard: string | null = null
  let coupon = input.coupon
  for (const bookingId of series.bookingIds) {
    const week = await deps.uow.repos.bookings.findById(bookingId)
    if (!week || week.lesson.state === 'CANCELLED') continue
    if (committed(week) && week.payment) {
      answer ??= { payment: week.payment, booking: week }
      if (week.payment.authorizeAt !== null || week.payment.status === 'scheduled') savedCard = week.payment.paymentMethodId
      continue
    }
    const request = { bookingId, paymentMethod: input.paymentMethod, coupon }
    const paid = savedCard ? await payWithSavedCard(deps, actor, { ...request, paymentMethod: savedCard }) : await payBooking(deps, actor, request)
    // The first week's refusal (not found, not the booker's, its hold lapsed, a decline) is the series'.
    if (paid.isErr()) return answer ? ok(answer) : err(paid.error)
    answer ??= paid.value
    coupon = null
    if (!committed(paid.value.booking)) break
    if (paid.value.payment.status === 'scheduled') savedCard = paid.value.payment.paymentMethodId
  }
  return answer ? ok(answer) : err(invalidStateTransition('booking series', 'cancelled', 'pay'))
}
