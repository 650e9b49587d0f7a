import type { Kysely } from 'kysely'
import { BOOKING_STATES } from '@tutoring/domain/booking'
import { feeOnPart, PAYOUT_SYNC_TOPICS, separateTransferOf } from '@tutoring/domain/booking-payments'
import type { PaymentProcessor } from '@tutoring/domain/payments'
import type { Database } from '../db/database'
import { rowToPayment } from './payment.repository'
import type { PaymentRow } from './payments.table'
import type { ProcessorSyncHandler } from '../outbox'

/**
 * Tutors' shares paid by separate transfer: the share is worked out when it goes (of what
 * the processor still holds of the payment, so a refund before it lowers it), sent with a
 * key made of the share's row, and the row marked sent after the processor answered, so a
 * retry after a lost answer pays once.
 */
export function payoutSyncHandlers(db: Kysely<Database>, processor: PaymentProcessor): Record<string, ProcessorSyncHandler> {
  return {
    [PAYOUT_SYNC_TOPICS.transfer]: async (data) => {
      const row = await db.selectFrom('tutor_transfers').selectAll().where('id', '=', Number(data.transferId)).executeTakeFirst()
      if (!row || row.status === 'sent') return
      const payment = await db.selectFrom('payments').selectAll().where('id', '=', row.payment_id).executeTakeFirstOrThrow()
      const account = await db
        .selectFrom('payout_accounts')
        .select('processor_account_id')
        .where('user_id', '=', row.tutor_id)
        .where('payouts_enabled', '=', true)
        .orderBy('state_at', 'desc')
        .executeTakeFirst()
      if (!account) throw new Error(`tutor ${row.tutor_id} has no payout-enabled account`)
      const amount = separateTransferOf(rowToPayment(payment), await owedBy(db, payment.booking_id))
      let transferId: string | null = null
      if (amount > 0) {
        const intent = payment.processor_payment_intent_id ? await processor.retrievePaymentIntent(payment.processor_payment_intent_id) : null
        // Tied to the charge when the charge can fund it; a coupon beyond the fee comes from the platform's balance.
        const fundedByCharge = intent !== null && intent.latestChargeId !== null && amount <= intent.amountReceivedPence && !payment.destination_account_id
        const transfer = await processor.createTransfer({
          accountId: account.processor_account_id,
          amountPence: amount,
          sourceChargeId: fundedByCharge ? intent.latestChargeId : null,
          transferGroup: row.transfer_group,
          metadata: { booking_id: String(payment.booking_id), payment_id: String(payment.id) },
          idempotencyKey: `${PAYOUT_SYNC_TOPICS.transfer}:${row.id}`,
        })
        transferId = transfer.id
      }
      await db
        .updateTable('tutor_transfers')
        .set({ status: 'sent', amount_pence: amount, processor_transfer_id: transferId, processor_account_id: account.processor_account_id, sent_at: new Date() })
        .where('id', '=', row.id)
        .execute()
    },
  }
}

/** What the tutor of a booking is owed, as separateTransferOf reads it. */
async function owedBy(db: Kysely<Database>, bookingId: number): Promise<{ lessonPricePence: number; refunded: boolean }> {
  const booking = await db.selectFrom('bookings').select(['lesson_price_pence', 'state']).where('id', '=', bookingId).executeTakeFirstOrThrow()
  return { lessonPricePence: booking.lesson_price_pence, refunded: booking.state === BOOKING_STATES.REFUNDED }
}

/** How a refund of this payment takes back the tutor's share: with the charge's own transfer, in proportion. */
export const refundRouting = (payment: PaymentRow): { reverseTransfer?: boolean; refundApplicationFee?: boolean } =>
  payment.destination_account_id ? { reverseTransfer: true, refundApplicationFee: true } : {}

/** The platform's fee on a partial capture of a destination charge, in proportion to what is kept. */
export const captureFee = (payment: PaymentRow, amountPence: number): { applicationFeePence?: number } =>
  payment.destination_account_id && payment.application_fee_pence !== null
    ? { applicationFeePence: feeOnPart({ applicationFeePence: payment.application_fee_pence }, payment.amount_pence, amountPence) }
    : {}

/**
 * After a refund of a payment whose tutor share went by separate transfer: the transfer is
 * reversed down to the share of what the processor still holds, once per payment and size.
 * A share not sent yet needs nothing: it is worked out when it goes.
 */
export async function reverseSeparateTransfer(db: Kysely<Database>, processor: PaymentProcessor, paymentId: number): Promise<void> {
  const row = await db.selectFrom('tutor_transfers').selectAll().where('payment_id', '=', paymentId).executeTakeFirst()
  if (!row || row.status !== 'sent' || !row.processor_transfer_id || row.amount_pence === null) return
  const payment = await db.selectFrom('payments').selectAll().where('id', '=', paymentId).executeTakeFirstOrThrow()
  const owed = Math.max(0, row.amount_pence - row.reversed_pence - separateTransferOf(rowToPayment(payment), await owedBy(db, payment.booking_id)))
  if (owed === 0) return
  await processor.reverseTransfer(row.processor_transfer_id, { amountPence: owed, idempotencyKey: `payout.reversal:${row.id}:${row.reversed_pence + owed}` })
  await db.updateTable('tutor_transfers').set({ reversed_pence: row.reversed_pence + owed }).where('id', '=', row.id).execute()
}
