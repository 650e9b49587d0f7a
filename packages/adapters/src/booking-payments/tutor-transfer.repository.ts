import type { Kysely } from 'kysely'
import type { TutorTransferRepository } from '@tutoring/domain/booking-payments'
import type { Database } from '../db/database'

/** `tutor_transfers` (shares waiting for a separate transfer) and `tutor_payouts`. */
export function tutorTransferRepository(db: Kysely<Database>): TutorTransferRepository {
  return {
    async insertWaiting({ paymentId, tutorId, transferGroup }) {
      await db
        .insertInto('tutor_transfers')
        .values({ payment_id: paymentId, tutor_id: tutorId, transfer_group: transferGroup, amount_pence: null, processor_transfer_id: null, processor_account_id: null, sent_at: null })
        .onConflict((oc) => oc.column('payment_id').doNothing())
        .execute()
    },
    async claimReady(tutorId, now, limit) {
      let q = db
        .selectFrom('tutor_transfers as t')
        .innerJoin('payments as p', 'p.id', 't.payment_id')
        .select('t.id')
        .where('t.status', '=', 'waiting')
        .where('p.status', '=', 'succeeded')
        // Nothing charged (a 100 % coupon): the platform pays the tutor once the lesson was given.
        .where(({ or, eb, exists, selectFrom }) =>
          or([
            eb('p.amount_pence', '>', 0),
            exists(
              selectFrom('bookings as b')
                .innerJoin('lessons as l', 'l.id', 'b.lesson_id')
                .select('b.id')
                .whereRef('b.id', '=', 'p.booking_id')
                .where('l.finish_at', '<=', now)
                .where('l.state', '<>', 0),
            ),
          ]),
        )
        .where(({ exists, selectFrom }) =>
          exists(selectFrom('payout_accounts as a').select('a.user_id').whereRef('a.user_id', '=', 't.tutor_id').where('a.payouts_enabled', '=', true)),
        )
      if (tutorId !== null) q = q.where('t.tutor_id', '=', tutorId)
      const rows = await q.orderBy('t.id').limit(limit).forUpdate('t').skipLocked().execute()
      const ids = rows.map((r) => r.id)
      if (ids.length > 0) await db.updateTable('tutor_transfers').set({ status: 'queued' }).where('id', 'in', ids).execute()
      return ids
    },
    async recordPayout(payout, at) {
      const row = await db
        .insertInto('tutor_payouts')
        .values({ processor_payout_id: payout.id, user_id: payout.tutorId, amount_pence: payout.amountPence, status: payout.status, failure_message: payout.failureMessage, updated_at: at })
        .onConflict((oc) =>
          oc
            .column('processor_payout_id')
            // A payout can fail after it was paid (the bank returns it), never the other way.
            .doUpdateSet({ status: payout.status, failure_message: payout.failureMessage, updated_at: at })
            .where('tutor_payouts.status', '<>', 'failed')
            .where('tutor_payouts.status', '<>', payout.status),
        )
        .returning('processor_payout_id')
        .executeTakeFirst()
      return row !== undefined
    },
    async contactOf(userId) {
      return db.selectFrom('users').select(['email', 'firstname']).where('id', '=', userId).executeTakeFirst()
    },
  }
}
