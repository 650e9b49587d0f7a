import type { Kysely } from 'kysely'
import { PAYMENT_SYNC_TOPICS } from '@tutoring/domain/booking'
import type { PaymentProcessor } from '@tutoring/domain/payments'
import type { Database } from '../db/database'
import type { ProcessorSyncHandler } from '../outbox'
import { captureFee, payoutSyncHandlers, refundRouting, reverseSeparateTransfer } from './payout-sync'

/** Booking payments' processor syncs: settling a booking's money after its decision, and tutors' transfers. */
export function bookingPaymentSyncHandlers(db: Kysely<Database>, processor: PaymentProcessor): Record<string, ProcessorSyncHandler> {
  return {
    ...paymentSettlementHandlers(db, processor),
    ...payoutSyncHandlers(db, processor),
  }
}

/**
 * The money side of a cancellation, decline or expiry, decided and committed with the
 * booking's new state. Each call carries an idempotency key made of the topic and the
 * payment, so a retry after a timeout never refunds or captures twice; the payment row is
 * updated after the processor answered, so a failure leaves the row as it was for the retry.
 */
function paymentSettlementHandlers(db: Kysely<Database>, processor: PaymentProcessor): Record<string, ProcessorSyncHandler> {
  const load = (id: number) => db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirst()
  return {
    [PAYMENT_SYNC_TOPICS.refund]: async (data) => {
      const payment = await load(Number(data.paymentId))
      if (!payment?.processor_payment_intent_id) return
      const amountPence = Number(data.amountPence)
      const refund = await processor.refundPayment(payment.processor_payment_intent_id, {
        amountPence,
        idempotencyKey: `${PAYMENT_SYNC_TOPICS.refund}:${payment.id}`,
        ...refundRouting(payment),
      })
      await db.updateTable('payments').set({ refunded_pence: refund.amountPence, updated_at: new Date() }).where('id', '=', payment.id).execute()
      await reverseSeparateTransfer(db, processor, payment.id)
    },
    [PAYMENT_SYNC_TOPICS.capture]: async (data) => {
      const payment = await load(Number(data.paymentId))
      if (!payment?.processor_payment_intent_id) return
      const current = await processor.retrievePaymentIntent(payment.processor_payment_intent_id)
      // A capture of the kept part that already went through (a retry after a lost answer) is done.
      const pi =
        current.status === 'requires_capture'
          ? await processor.capturePaymentIntent(payment.processor_payment_intent_id, {
              amountPence: Number(data.amountPence),
              idempotencyKey: `${PAYMENT_SYNC_TOPICS.capture}:${payment.id}`,
              ...captureFee(payment, Number(data.amountPence)),
            })
          : current
      await db
        .updateTable('payments')
        .set({
          status: pi.status,
          // What was not captured was released, not refunded: refunded never exceeds captured.
          captured_pence: pi.amountReceivedPence,
          capture_at: null,
          updated_at: new Date(),
        })
        .where('id', '=', payment.id)
        .execute()
    },
    [PAYMENT_SYNC_TOPICS.cancel]: async (data) => {
      const payment = await load(Number(data.paymentId))
      if (!payment) return
      // A release names its intent when it knows it: another of the row's (a second answer) is cancelled and the row left as it is.
      const named = typeof data.intentId === 'string' ? data.intentId : null
      if (named && named !== payment.processor_payment_intent_id) {
        const other = await processor.retrievePaymentIntent(named)
        if (other.status !== 'canceled' && other.status !== 'succeeded') await processor.cancelPaymentIntent(named, { idempotencyKey: `${PAYMENT_SYNC_TOPICS.cancel}:${payment.id}:${named}` })
        return
      }
      let intentId = payment.processor_payment_intent_id
      if (!intentId) {
        // Released while its creating call (or a scheduled authorisation's) had not answered.
        if (payment.status !== 'requires_confirmation' && data.unanswered !== true) return
        // The creating call went unanswered: whatever intent the processor made for this row is
        // the one to void. None made, nothing is held.
        const found = await processor.findPaymentIntentByPaymentId(payment.id)
        if (!found) {
          await db
            .updateTable('payments')
            .set({ status: 'canceled', authorize_at: null, capture_at: null, updated_at: new Date() })
            .where('id', '=', payment.id)
            .where('processor_payment_intent_id', 'is', null)
            .execute()
          return
        }
        intentId = found.id
        await db.updateTable('payments').set({ processor_payment_intent_id: intentId, updated_at: new Date() }).where('id', '=', payment.id).execute()
      }
      const current = await processor.retrievePaymentIntent(intentId)
      const pi =
        current.status === 'canceled' || current.status === 'succeeded'
          ? current
          : await processor.cancelPaymentIntent(intentId, { idempotencyKey: `${PAYMENT_SYNC_TOPICS.cancel}:${payment.id}` })
      await db
        .updateTable('payments')
        .set({ status: pi.status, capture_at: null, updated_at: new Date() })
        .where('id', '=', payment.id)
        .execute()
    },
  }
}
