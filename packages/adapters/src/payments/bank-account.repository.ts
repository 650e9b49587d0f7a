import type { Kysely, Transaction } from 'kysely'
import type { BankAccount, BankAccountRepository } from '@tutoring/domain/payments'
import type { WithoutLocks } from '@tutoring/domain/shared'
import type { Database } from '../db/database'
import { lockUserRow, type Locks } from '../db/row-locks'
import type { BankAccountRow } from './bank-accounts.table'

const rowToBankAccount = (row: BankAccountRow): BankAccount => ({
  id: row.id,
  userId: row.user_id,
  accountHolderName: row.account_holder_name,
  sortCode: row.sort_code,
  last4: row.last4,
  processorToken: row.processor_token,
  processorBankAccountId: row.processor_bank_account_id,
  processorAccountId: row.processor_account_id,
  linkedAt: row.linked_at,
  isDefault: row.is_default,
  createdAt: row.created_at,
})

const live = (db: Kysely<Database>) => db.selectFrom('bank_accounts').selectAll().where('deleted_at', 'is', null)

export function bankAccountRepository(db: Kysely<Database>): WithoutLocks<BankAccountRepository> {
  return {
    async listLive(userId) {
      const rows = await live(db).where('user_id', '=', userId).orderBy('is_default', 'desc').orderBy('id', 'desc').execute()
      return rows.map(rowToBankAccount)
    },
    async findLive(id) {
      const row = await live(db).where('id', '=', id).executeTakeFirst()
      return row && rowToBankAccount(row)
    },
    async insert(account) {
      const row = await db
        .insertInto('bank_accounts')
        .values({
          user_id: account.userId,
          account_holder_name: account.accountHolderName,
          sort_code: account.sortCode,
          last4: account.last4,
          processor_token: account.processorToken,
          processor_bank_account_id: null,
          processor_account_id: null,
          linked_at: null,
          is_default: account.isDefault,
          deleted_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      return rowToBankAccount(row)
    },
    async update(id, change, at) {
      const row = await db
        .updateTable('bank_accounts')
        .set({ ...(change.accountHolderName !== undefined ? { account_holder_name: change.accountHolderName } : {}), updated_at: at })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
      return rowToBankAccount(row)
    },
    async makeDefault(userId, id, at) {
      await db.updateTable('bank_accounts').set({ is_default: false, updated_at: at }).where('user_id', '=', userId).where('is_default', '=', true).where('id', '<>', id).execute()
      const row = await db.updateTable('bank_accounts').set({ is_default: true, updated_at: at }).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
      return rowToBankAccount(row)
    },
    async softDelete(id, at) {
      await db.updateTable('bank_accounts').set({ deleted_at: at, is_default: false, updated_at: at }).where('id', '=', id).execute()
    },
    async connectedAccountOf(userId) {
      const row = await db
        .selectFrom('bank_accounts')
        .select('processor_account_id')
        .where('user_id', '=', userId)
        .where('processor_account_id', 'is not', null)
        .orderBy('linked_at')
        .executeTakeFirst()
      return row?.processor_account_id ?? null
    },
    async markLinked(id, linked) {
      const row = await db
        .updateTable('bank_accounts')
        .set({
          processor_account_id: linked.processorAccountId,
          processor_bank_account_id: linked.processorBankAccountId,
          // The token is spent: the processor accepts it once.
          processor_token: null,
          linked_at: linked.at,
          updated_at: linked.at,
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
      return rowToBankAccount(row)
    },
  }
}

export function bankAccountLocks(trx: Transaction<Database>): Locks<BankAccountRepository> {
  return {
    async lockLive(id) {
      const row = await live(trx).where('id', '=', id).forUpdate().executeTakeFirst()
      return row && rowToBankAccount(row)
    },
    lockUser: (userId) => lockUserRow(trx, userId),
  }
}
