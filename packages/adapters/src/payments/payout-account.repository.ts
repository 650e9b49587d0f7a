import { sql, type Kysely } from 'kysely'
import type { PayoutAccountRepository, PayoutAccountState } from '@tutoring/domain/payments'
import type { Database } from '../db/database'

/**
 * Tutors' connected accounts: `payout_accounts` holds what the processor last said of each;
 * an account linked to a bank account but not yet described is not enabled.
 */
export function payoutAccountRepository(db: Kysely<Database>): PayoutAccountRepository {
  const described = (where: { userId?: number; accountId?: string }) => {
    let q = db.selectFrom('payout_accounts').select(['processor_account_id', 'user_id', 'payouts_enabled'])
    if (where.userId !== undefined) q = q.where('user_id', '=', where.userId)
    if (where.accountId !== undefined) q = q.where('processor_account_id', '=', where.accountId)
    return q.orderBy('payouts_enabled', 'desc').orderBy('state_at', 'desc').limit(1).executeTakeFirst()
  }
  const linked = (where: { userId?: number; accountId?: string }) => {
    let q = db.selectFrom('bank_accounts').select(['processor_account_id', 'user_id']).where('processor_account_id', 'is not', null)
    if (where.userId !== undefined) q = q.where('user_id', '=', where.userId)
    if (where.accountId !== undefined) q = q.where('processor_account_id', '=', where.accountId)
    return q.orderBy('linked_at').limit(1).executeTakeFirst()
  }
  const find = async (where: { userId?: number; accountId?: string }): Promise<PayoutAccountState | undefined> => {
    const row = await described(where)
    if (row) return { accountId: row.processor_account_id, userId: row.user_id, payoutsEnabled: row.payouts_enabled }
    const bank = await linked(where)
    return bank?.processor_account_id ? { accountId: bank.processor_account_id, userId: bank.user_id, payoutsEnabled: false } : undefined
  }
  return {
    ofUser: (userId) => find({ userId }),
    findById: (accountId) => find({ accountId }),
    async record({ accountId, userId, payoutsEnabled, at }) {
      // An untimed word sorts before every timed one (state_at is the epoch).
      const stateAt = at ?? new Date(0)
      const row = await db
        .insertInto('payout_accounts')
        .values({ processor_account_id: accountId, user_id: userId, payouts_enabled: payoutsEnabled, state_at: stateAt })
        .onConflict((oc) =>
          at === null
            ? oc.column('processor_account_id').doNothing()
            : oc
                .column('processor_account_id')
                .doUpdateSet({ payouts_enabled: payoutsEnabled, state_at: stateAt, updated_at: sql<Date>`now()` })
                .where('payout_accounts.state_at', '<=', stateAt),
        )
        .returning('processor_account_id')
        .executeTakeFirst()
      return row !== undefined
    },
  }
}
