import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { fieldError, invalidStateTransition, type Actor, type Forbidden, type InvalidStateTransition, type NotFound, type ValidationFailed } from '../shared'
import type { PaymentFailed } from '../payments'
import type { CouponInvalid } from '../pricing'
import { bookerCustomer } from './booking-payment-intent'
import { PAYMENT_SYNC_TOPICS, type BookingPayment, type PaymentStatus } from '../booking'
import { findVisiblePayment } from './legacy-payments'
import { payBooking } from './pay-booking'
import type { BookingPaymentsDeps } from './ports'

export type ChangePaymentMethodError = NotFound | Forbidden | InvalidStateTransition | ValidationFailed | CouponInvalid | PaymentFailed

/** Attempts that hold no money: their method may be replaced and the payment tried again. */
const RETRYABLE: ReadonlySet<PaymentStatus> = new Set(['requires_payment_method', 'requires_confirmation', 'requires_action'])

/**
 * `PUT /api/v1/payments/{id}` `{payment_method}`. A payment scheduled for a later
 * authorisation keeps its row and takes the new card (attached to the booker now, so a
 * refused card is a 422). An attempt not yet authorised, or whose authorisation failed, is
 * tried again with the new method as POST /api/payments/pay would: a new attempt with its
 * own processor idempotency key (the failed one's key would only replay its failure), and
 * the old attempt is released. Anything else holds or took money: 409.
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
      const paid = await payBooking(deps, actor, { bookingId: payment.bookingId, paymentMethod: input.paymentMethod, coupon: null })
      if (paid.isErr()) return err(paid.error)
      if (paid.value.payment.id !== payment.id) await retire(deps, payment)
      return ok(paid.value.payment)
    })(),
  )
}

/**
 * The replaced attempt: an intent at the processor is cancelled through the outbox (one whose
 * creating call went unanswered is looked up there by the payment's id); one never sent is just closed.
 */
async function retire(deps: Pick<BookingPaymentsDeps, 'uow'>, payment: BookingPayment): Promise<void> {
  await deps.uow.run(async (repos) => {
    if (payment.intentId || payment.status === 'requires_confirmation') {
      await repos.outbox.enqueue({ kind: 'processor_sync', topic: PAYMENT_SYNC_TOPICS.cancel, data: { paymentId: payment.id, amountPence: null }, dedupeKey: `${PAYMENT_SYNC_TOPICS.cancel}:${payment.id}` })
    } else {
      await repos.payments.update(payment.id, { status: 'canceled' })
    }
    return ok(undefined)
  })
}
