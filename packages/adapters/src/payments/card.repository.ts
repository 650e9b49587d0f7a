import type { Kysely, Transaction } from 'kysely'
import type { CardRepository, SavedCard } from '@tutoring/domain/payments'
import type { WithoutLocks } from '@tutoring/domain/shared'
import type { Database } from '../db/database'
import { lockUserRow, type Locks } from '../db/row-locks'
import type { CardRow } from './cards.table'

const rowToCard = (row: CardRow): SavedCard => ({
  id: row.id,
  userId: row.user_id,
  paymentMethodId: row.processor_payment_method_id,
  brand: row.brand,
  last4: row.last4,
  expMonth: row.exp_month,
  expYear: row.exp_year,
  isDefault: row.is_default,
  createdAt: row.created_at,
})

export function cardRepository(db: Kysely<Database>): WithoutLocks<CardRepository> {
  const live = () => db.selectFrom('cards').selectAll().where('deleted_at', 'is', null)
  return {
    async listLive(userId) {
      const rows = await live().where('user_id', '=', userId).orderBy('is_default', 'desc').orderBy('id', 'desc').execute()
      return rows.map(rowToCard)
    },
    async findLive(id) {
      const row = await live().where('id', '=', id).executeTakeFirst()
      return row && rowToCard(row)
    },
    async findLiveByPaymentMethod(userId, paymentMethodId) {
      const row = await live().where('user_id', '=', userId).where('processor_payment_method_id', '=', paymentMethodId).executeTakeFirst()
      return row && rowToCard(row)
    },
    async insert(userId, card) {
      const row = await db
        .insertInto('cards')
        .values({
          user_id: userId,
          processor_payment_method_id: card.paymentMethodId,
          brand: card.brand,
          last4: card.last4,
          exp_month: card.expMonth,
          exp_year: card.expYear,
          is_default: false,
          deleted_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      return rowToCard(row)
    },
    async makeDefault(userId, cardId, at) {
      // Off first: the partial unique index allows one live default per user at any moment.
      await db.updateTable('cards').set({ is_default: false, updated_at: at }).where('user_id', '=', userId).where('is_default', '=', true).where('id', '<>', cardId).execute()
      const row = await db.updateTable('cards').set({ is_default: true, updated_at: at }).where('id', '=', cardId).returningAll().executeTakeFirstOrThrow()
      return rowToCard(row)
    },
    async softDelete(id, at) {
      await db.updateTable('cards').set({ deleted_at: at, is_default: false, updated_at: at }).where('id', '=', id).execute()
    },
  }
}

export function cardLocks(trx: Transaction<Database>): Locks<CardRepository> {
  return { lockUser: (userId) => lockUserRow(trx, userId) }
}
