import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { invalidStateTransition, type Actor, type Forbidden, type InvalidStateTransition, type NotFound } from '../shared'
import { cancelBooking, isLivePayment, PAYMENT_SYNC_TOPICS, type BookingPayment, type CancellationError, type PaymentStatus } from '../booking'
import { findVisiblePayment } from './legacy-payments'
import type { BookingPaymentsDeps } from './ports'

export type ReleasePaymentError = NotFound | Forbidden | InvalidStateTransition | CancellationError

/** An attempt that holds nothing the booking counts on. */
const ATTEMPTS: ReadonlySet<PaymentStatus> = new Set(['requires_payment_method', 'requires_confirmation', 'requires_action'])

/**
 * `DELETE /api/v1/payments/{id}`: releases an authorisation not captured. An attempt the
 * customer never completed is cancelled at the processor and the booking stays payable. An
 * authorisation the booking counts on (held, or scheduled) is released by cancelling the
 * booking, under the cancellation policy like any cancellation by the same person (a late
 * customer keeps paying their share; the rest is released). Captured money is refunded by
 * cancelling, never released: 409. A released payment answers as it is.
 */
export function releasePayment(deps: Pick<BookingPaymentsDeps, 'uow' | 'clock' | 'processor'>, actor: Actor, paymentId: number): ResultAsync<BookingPayment, ReleasePaymentError> {
  return new ResultAsync(
    (async (): Promise<Result<BookingPayment, ReleasePaymentError>> => {
      const found = await findVisiblePayment(deps.uow.repos, actor, paymentId, 'change')
      if (found.isErr()) return err(found.error)
      const { payment } = found.value
      if (payment.status === 'canceled') return ok(payment)
      if (payment.status === 'succeeded') return err(invalidStateTransition('payment', 'succeeded', 'release'))
      if (ATTEMPTS.has(payment.status) && !isLivePayment(payment)) {
        // Closed first, under the booking's lock: a pay whose processor call is still in flight
        // then finds its attempt released and gives back what it gets (recordAttemptAnswer).
        const closed = await deps.uow.run(async (repos): Promise<Result<{ changed: BookingPayment | null }, never>> => {
          await repos.bookings.lockById(payment.bookingId)
          const row = await repos.payments.findById(payment.id)
          if (!row || !ATTEMPTS.has(row.status) || isLivePayment(row)) return ok({ changed: row ?? payment })
          await repos.payments.update(row.id, { status: 'canceled', authorizeAt: null, captureAt: null, retryAt: null })
          // Queued too, so a processor that refuses the call below still has it cancelled later (CONTRACT §14).
          if (row.intentId) {
            const topic = PAYMENT_SYNC_TOPICS.cancel
            await repos.outbox.enqueue({ kind: 'processor_sync', topic, data: { paymentId: row.id, amountPence: null, intentId: row.intentId }, dedupeKey: `${topic}:${row.id}:${row.intentId}:release` })
          }
          return ok({ changed: null })
        })
        const { changed } = closed._unsafeUnwrap()
        // Answered meanwhile: released as what it became.
        if (changed) return changed.status === 'canceled' || changed.status === 'succeeded' ? ok(changed) : releasePayment(deps, actor, paymentId)
        // A row whose creating call went unanswered may have an authorisation at the processor all the same.
        const intentId = payment.intentId ?? (await deps.processor.findPaymentIntentByPaymentId(payment.id))?.id ?? null
        const status = intentId ? (await deps.processor.cancelPaymentIntent(intentId, { idempotencyKey: `payment.release:${payment.id}` })).status : 'canceled'
        if (intentId) await deps.uow.repos.payments.update(payment.id, { intentId })
        return ok({ ...payment, status, intentId })
      }
      const cancelled = await cancelBooking(deps, actor, { bookingId: payment.bookingId })
      if (cancelled.isErr()) return err(cancelled.error)
      return ok((await deps.uow.repos.payments.findById(payment.id)) ?? payment)
    })(),
  )
}
