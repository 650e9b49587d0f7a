import { sql, type Kysely } from 'kysely'
import type { MobileNumber, MobileNumberRepository } from '@tutoring/domain'
import type { Database } from '../database'
import type { MobileNumberRow } from '../tables/mobile-numbers.table'

const rowToMobileNumber = (row: MobileNumberRow): MobileNumber => ({ id: row.id, userId: row.user_id, number: row.number })

export function mobileNumberRepository(db: Kysely<Database>): MobileNumberRepository {
  return {
    async listByUser(userId) {
      const rows = await db.selectFrom('mobile_numbers').selectAll().where('user_id', '=', userId).orderBy('id').execute()
      return rows.map(rowToMobileNumber)
    },
    async findById(id) {
      const row = await db.selectFrom('mobile_numbers').selectAll().where('id', '=', id).executeTakeFirst()
      return row && rowToMobileNumber(row)
    },
    async insert(userId, { number }) {
      const row = await db.insertInto('mobile_numbers').values({ user_id: userId, number }).returningAll().executeTakeFirstOrThrow()
      return rowToMobileNumber(row)
    },
    async update(id, { number }) {
      const row = await db
        .updateTable('mobile_numbers')
        .set({ number, updated_at: sql<Date>`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
      return rowToMobileNumber(row)
    },
    async remove(id) {
      await db.deleteFrom('mobile_numbers').where('id', '=', id).execute()
    },
  }
}
