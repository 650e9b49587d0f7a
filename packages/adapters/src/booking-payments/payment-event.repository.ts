import type { Kysely, Transaction } from 'kysely'
import { BOOKING_STATES, bookingStateOf } from '@tutoring/domain/booking'
import type { PaymentEventRepository, PaymentRecord } from '@tutoring/domain/booking-payments'
import { lessonStateOf } from '@tutoring/domain/lesson'
import type { WithoutLocks } from '@tutoring/domain/shared'
import type { Database } from '../db/database'
import type { Locks } from '../db/row-locks'
import type { PaymentRow } from './payments.table'
import { disputeOf } from './payment.repository'

const rowToPayment = (row: PaymentRow, tutorId: number): PaymentRecord => ({
  id: row.id,
  bookingId: row.booking_id,
  userId: row.user_id,
  status: row.status,
  amountPence: row.amount_pence,
  capturedPence: row.captured_pence,
  refundedPence: row.refunded_pence,
  dispute: disputeOf(row),
  tutorId,
  intentId: row.processor_payment_intent_id,
  voidedIntentId: row.voided_payment_intent_id,
  paymentMethodId: row.processor_payment_method_id,
  failedAttempts: row.failed_attempts,
})

/** The payment webhook's rows: `payments`, the booking's state and its `booking_events`. */
export function paymentEventRepository(db: Kysely<Database>): WithoutLocks<PaymentEventRepository> {
  return {
    async update(id, change) {
      await db
        .updateTable('payments')
        .set({
          ...(change.intentId !== undefined ? { processor_payment_intent_id: change.intentId } : {}),
          ...(change.status !== undefined ? { status: change.status } : {}),
          ...(change.capturedPence !== undefined ? { captured_pence: change.capturedPence } : {}),
          ...(change.refundedPence !== undefined ? { refunded_pence: change.refundedPence } : {}),
          ...(change.lastError !== undefined ? { last_error: change.lastError } : {}),
          ...(change.dispute
            ? {
                dispute_id: change.dispute.id,
                dispute_status: change.dispute.status,
                dispute_reason: change.dispute.reason,
                dispute_amount_pence: change.dispute.amountPence,
                disputed_at: change.dispute.openedAt,
              }
            : {}),
          updated_at: change.at,
        })
        .where('id', '=', id)
        .execute()
    },
    async setBookingState(bookingId, state, at) {
      await db.updateTable('bookings').set({ state: BOOKING_STATES[state], updated_at: at }).where('id', '=', bookingId).execute()
    },
    async addBookingEvent({ bookingId, kind, data, at }) {
      await db.insertInto('booking_events').values({ booking_id: bookingId, kind, actor_id: null, data: JSON.stringify(data), created_at: at }).execute()
    },
  }
}

async function lockPayment(
  trx: Transaction<Database>,
  column: 'id' | 'processor_payment_intent_id' | 'setup_intent_id',
  value: number | string,
): Promise<PaymentRecord | undefined> {
  // The booking first, as every request takes it before its payments: an event holding the
  // payment while waiting for the booking deadlocked with a DELETE or a pay (the booking of a payment never changes).
  const found = await trx.selectFrom('payments').select('booking_id').where(column, '=', value).executeTakeFirst()
  if (!found) return undefined
  await trx.selectFrom('bookings').select('id').where('id', '=', found.booking_id).forUpdate().execute()
  const row = await trx.selectFrom('payments').selectAll().where(column, '=', value).forUpdate().executeTakeFirst()
  if (!row) return undefined
  const lesson = await trx
    .selectFrom('bookings as b')
    .innerJoin('lessons as l', 'l.id', 'b.lesson_id')
    .select('l.tutor_id')
    .where('b.id', '=', row.booking_id)
    .executeTakeFirstOrThrow()
  return rowToPayment(row, lesson.tutor_id)
}

export function paymentEventLocks(trx: Transaction<Database>): Locks<PaymentEventRepository> {
  return {
    lockById: (paymentId) => lockPayment(trx, 'id', paymentId),
    lockByIntentId: (paymentIntentId) => lockPayment(trx, 'processor_payment_intent_id', paymentIntentId),
    lockBySetupIntentId: (setupIntentId) => lockPayment(trx, 'setup_intent_id', setupIntentId),
    async lockBooking(bookingId) {
      const row = await trx
        .selectFrom('bookings as b')
        .innerJoin('lessons as l', 'l.id', 'b.lesson_id')
        .select(['b.id', 'b.state', 'l.state as lesson_state'])
        .where('b.id', '=', bookingId)
        .forUpdate()
        .executeTakeFirst()
      if (!row) return undefined
      const state = bookingStateOf(row.state)
      const lessonState = lessonStateOf(row.lesson_state)
      if (!state || !lessonState) throw new Error(`booking ${bookingId} has an unknown state`)
      return { id: row.id, state, lessonState }
    },
  }
}
