import { sql, type ExpressionBuilder, type Kysely } from 'kysely'
import type { BookingPayment, PaymentDispute, PaymentRouting } from '@tutoring/domain/booking'
import type { FailingPaymentRepository, PaymentRepository } from '@tutoring/domain/booking-payments'
import type { Database } from '../db/database'
import type { PaymentRow } from './payments.table'

export const rowToPayment = (row: PaymentRow): BookingPayment => ({
  id: row.id,
  bookingId: row.booking_id,
  userId: row.user_id,
  status: row.status,
  amountPence: row.amount_pence,
  capturedPence: row.captured_pence,
  refundedPence: row.refunded_pence,
  intentId: row.processor_payment_intent_id,
  voidedIntentId: row.voided_payment_intent_id,
  paymentMethodId: row.processor_payment_method_id,
  clientSecret: row.client_secret,
  setupIntentId: row.setup_intent_id,
  redirectUrl: row.redirect_url,
  authorizeAt: row.authorize_at,
  captureAt: row.capture_at,
  lastError: row.last_error,
  routing: routingOf(row),
  dispute: disputeOf(row),
  failedAttempts: row.failed_attempts,
  retryAt: row.retry_at,
  createdAt: row.created_at,
})

const routingOf = (row: PaymentRow): PaymentRouting | null =>
  row.transfer_group === null
    ? null
    : { destinationAccountId: row.destination_account_id, applicationFeePence: row.application_fee_pence ?? 0, transferGroup: row.transfer_group }

export const disputeOf = (row: PaymentRow): PaymentDispute | null =>
  row.dispute_id === null
    ? null
    : { id: row.dispute_id, status: row.dispute_status ?? 'needs_response', reason: row.dispute_reason, amountPence: row.dispute_amount_pence ?? 0, openedAt: row.disputed_at ?? row.updated_at }

export function paymentRepository(db: Kysely<Database>): PaymentRepository {
  return {
    async insert(p) {
      const row = await db
        .insertInto('payments')
        .values({
          booking_id: p.bookingId,
          user_id: p.userId,
          status: p.status,
          amount_pence: p.amountPence,
          captured_pence: p.status === 'succeeded' ? p.amountPence : 0,
          processor_payment_method_id: p.paymentMethodId,
          authorize_at: p.authorizeAt,
          capture_at: p.captureAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      return rowToPayment(row)
    },
    async findById(id) {
      const row = await db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirst()
      return row && rowToPayment(row)
    },
    async listByBooking(bookingId) {
      const rows = await db.selectFrom('payments').selectAll().where('booking_id', '=', bookingId).orderBy('id').execute()
      return rows.map(rowToPayment)
    },
    async update(id, patch) {
      await db
        .updateTable('payments')
        .set({
          ...(patch.status !== undefined ? { status: patch.status } : {}),
          ...(patch.capturedPence !== undefined ? { captured_pence: patch.capturedPence } : {}),
          ...(patch.refundedPence !== undefined ? { refunded_pence: patch.refundedPence } : {}),
          ...(patch.intentId !== undefined ? { processor_payment_intent_id: patch.intentId } : {}),
          ...(patch.voidedIntentId !== undefined ? { voided_payment_intent_id: patch.voidedIntentId } : {}),
          ...(patch.paymentMethodId !== undefined ? { processor_payment_method_id: patch.paymentMethodId } : {}),
          ...(patch.clientSecret !== undefined ? { client_secret: patch.clientSecret } : {}),
          ...(patch.setupIntentId !== undefined ? { setup_intent_id: patch.setupIntentId } : {}),
          ...(patch.redirectUrl !== undefined ? { redirect_url: patch.redirectUrl } : {}),
          ...(patch.lastError !== undefined ? { last_error: patch.lastError } : {}),
          ...(patch.authorizeAt !== undefined ? { authorize_at: patch.authorizeAt } : {}),
          ...(patch.captureAt !== undefined ? { capture_at: patch.captureAt } : {}),
          ...(patch.routing
            ? { destination_account_id: patch.routing.destinationAccountId, application_fee_pence: patch.routing.applicationFeePence, transfer_group: patch.routing.transferGroup }
            : {}),
          ...(patch.failedAttempts !== undefined ? { failed_attempts: patch.failedAttempts } : {}),
          ...(patch.retryAt !== undefined ? { retry_at: patch.retryAt } : {}),
          updated_at: sql<Date>`now()`,
        })
        .where('id', '=', id)
        .execute()
    },
    async claimDue(kind, now) {
      const due = db.selectFrom('payments').innerJoin('bookings', 'bookings.id', 'payments.booking_id').selectAll('payments')
      const query =
        kind === 'authorize'
          ? due.where('payments.status', '=', 'scheduled').where('payments.authorize_at', '<=', now).orderBy('payments.authorize_at')
          : kind === 'authentication'
            ? due.where('payments.status', 'in', ['requires_payment_method', 'requires_action']).where('payments.authorize_at', '<=', now).orderBy('payments.authorize_at')
            : due.where('payments.status', '=', 'requires_capture').where('payments.capture_at', '<=', now).orderBy('payments.capture_at')
      // The booking is claimed with its payment, skipped while a request holds it: requests take
      // the booking before its payments, so a run holding the payment and waiting for the booking deadlocked with them.
      const row = await query
        .where((eb) => eb.or([eb('payments.retry_at', 'is', null), eb('payments.retry_at', '<=', now)]))
        .limit(1)
        .forUpdate(['payments', 'bookings'])
        .skipLocked()
        .executeTakeFirst()
      return row && rowToPayment(row)
    },
    async list(filter, page) {
      let query = db.selectFrom('payments')
      if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId)
      const [rows, count] = await Promise.all([
        query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.perPage).offset((page.page - 1) * page.perPage).execute(),
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ])
      return { items: rows.map(rowToPayment), total: Number(count.n) }
    },
    async defaultPaymentMethodOf(userId) {
      const row = await db
        .selectFrom('cards')
        .select('processor_payment_method_id')
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .orderBy('is_default', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst()
      return row?.processor_payment_method_id ?? null
    },
  }
}

/** A scheduled authorisation or a capture still waiting to be done. */
const workStillDue = (eb: ExpressionBuilder<Database, 'payments'>) =>
  eb.or([
    eb.and([eb('status', '=', 'scheduled'), eb('authorize_at', 'is not', null)]),
    eb.and([eb('status', '=', 'requires_capture'), eb('capture_at', 'is not', null)]),
  ])

/**
 * The operator's view of due payment work the processor keeps refusing (`cli outbox:failed`
 * and `outbox:retry payment:ID`): rows with failures whose work is still due.
 */
export function failingPayments(db: Kysely<Database>): FailingPaymentRepository {
  return {
    async list() {
      const rows = await db
        .selectFrom('payments')
        .select(['id', 'booking_id', 'status', 'failed_attempts', 'retry_at', 'last_error'])
        .where('failed_attempts', '>', 0)
        .where(workStillDue)
        .orderBy('id')
        .execute()
      return rows.map((r) => ({
        id: r.id,
        bookingId: r.booking_id,
        work: r.status === 'scheduled' ? 'authorize' : 'capture',
        attempts: r.failed_attempts,
        retryAt: r.retry_at,
        lastError: r.last_error,
      }))
    },
    /** Makes the payment's failing work due now; answers whether there was such work. */
    async retryNow(id: number, now: Date): Promise<boolean> {
      const result = await db.updateTable('payments').set({ retry_at: now }).where('id', '=', id).where('failed_attempts', '>', 0).where(workStillDue).executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
  }
}
