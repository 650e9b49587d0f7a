import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { fieldError, invalidStateTransition, type Actor, type Forbidden, type InvalidStateTransition, type NotFound, type ValidationFailed } from '../shared'
import type { PaymentFailed } from '../payments'
import type { CouponInvalid } from '../pricing'
import { bookerCustomer } from './booking-payment-intent'
import type { BookingPayment } from '../booking'
import { findVisiblePayment } from './legacy-payments'
import { RETRYABLE, retryBookingPayment } from './pay-booking'
import type { BookingPaymentsDeps } from './ports'

export type ChangePaymentMethodError = NotFound | Forbidden | InvalidStateTransition | ValidationFailed | CouponInvalid | PaymentFailed

/**
 * `PUT /api/v1/payments/{id}` `{payment_method}`. A payment scheduled for a later
 * authorisation keeps its row and takes the new card (attached to the booker now, so a
 * refused card is a 422). An attempt not yet authorised, or whose authorisation failed, is
 * tried again with the new method: that same payment, whose id the answer keeps (CONTRACT
 * §17, retryBookingPayment). Anything else holds or took money: 409.
 */
export function changePaymentMethod(
  deps: Pick<BookingPaymentsDeps, 'uow' | 'clock' | 'processor' | 'config'>,
  actor: Actor,
  input: { paymentId: number; paymentMethod: string },
): ResultAsync<BookingPayment, ChangePaymentMethodError> {
  return new ResultAsync(
    (async (): Promise<Result<BookingPayment, ChangePaymentMethodError>> => {
      const found = await findVisiblePayment(deps.uow.repos, actor, input.paymentId, 'change')
      if (found.isErr()) return err(found.error)
      const { payment, booking } = found.value
      if (payment.status === 'scheduled') {
        const attached = await deps.processor.attachCard(await bookerCustomer(deps, deps.uow.repos, booking), input.paymentMethod)
        if (attached.isErr()) return err(fieldError('payment_method', attached.error.reason))
        await deps.uow.repos.payments.update(payment.id, { paymentMethodId: attached.value.paymentMethodId })
        return ok({ ...payment, paymentMethodId: attached.value.paymentMethodId })
      }
      if (!RETRYABLE.has(payment.status)) return err(invalidStateTransition('payment', payment.status, 'change_payment_method'))
      const retried = await retryBookingPayment(deps, actor, { payment, paymentMethod: input.paymentMethod })
      return retried.map((outcome) => outcome.payment)
    })(),
  )
}
