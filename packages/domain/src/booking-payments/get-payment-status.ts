import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { isInternal, notFound, type Actor, type NotFound } from '../shared'
import { announceIfPaid, transitionBooking, type BookingPayment } from '../booking'
import type { BookingPaymentsDeps } from './ports'

export type PaymentStatusView = { payment: BookingPayment; /** whether the caller may see the client secret and redirect */ owner: boolean }

const UNSETTLED = new Set(['requires_action', 'processing'])

/**
 * `GET /api/payments/{id}/status` (public). Anyone holding the id learns the status only;
 * the payer (or staff, by bearer token) also gets the client secret and the redirect, which
 * let a client finish the payment. A payment still waiting on the customer is refreshed
 * from the processor, so a finished 3-D Secure step moves the booking on.
 */
export function getPaymentStatus(
  deps: Pick<BookingPaymentsDeps, 'uow' | 'processor' | 'clock'>,
  actor: Actor | undefined,
  paymentId: number,
): ResultAsync<PaymentStatusView, NotFound> {
  return new ResultAsync(
    (async (): Promise<Result<PaymentStatusView, NotFound>> => {
      const found = await deps.uow.repos.payments.findById(paymentId)
      if (!found) return err(notFound('payment'))
      const owner = actor !== undefined && (actor.id === found.userId || isInternal(actor.roleId))
      if (!found.intentId || !UNSETTLED.has(found.status)) return ok({ payment: found, owner })
      const pi = await deps.processor.retrievePaymentIntent(found.intentId)
      if (pi.status === found.status) return ok({ payment: found, owner })
      return deps.uow.run(async (repos) => {
        await repos.payments.update(found.id, { status: pi.status, capturedPence: pi.amountReceivedPence })
        const a = await repos.bookings.lockById(found.bookingId)
        if (a && (pi.status === 'requires_capture' || pi.status === 'succeeded')) {
          const moved = transitionBooking(a.booking.state, 'pay', { capture: pi.status === 'succeeded' ? 'immediate' : 'manual', lessonState: a.lesson.state })
          if (moved.isOk()) {
            await repos.bookings.updateBooking(a.booking.id, { state: moved.value.to, holdExpiresAt: null })
            await announceIfPaid(repos, a, moved.value.to, deps.clock.now())
            await repos.bookings.addEvent(a.booking.id, 'authorized', null, { payment_id: found.id })
          }
        }
        const updated = await repos.payments.findById(found.id)
        return ok({ payment: updated ?? found, owner })
      })
    })(),
  )
}
