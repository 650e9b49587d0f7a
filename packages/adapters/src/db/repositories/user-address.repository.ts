import { sql, type Kysely } from 'kysely'
import type { UserAddress, UserAddressRepository } from '@tutoring/domain'
import type { Database } from '../database'
import type { AddressRow } from '../tables/addresses.table'
import { toColumns } from './column-names'

const rowToAddress = (row: AddressRow): UserAddress => ({
  id: row.id,
  userId: row.user_id,
  line1: row.line1,
  line2: row.line2,
  city: row.city,
  postcode: row.postcode,
  country: row.country.trim(),
})

const COLUMNS = { line1: 'line1', line2: 'line2', city: 'city', postcode: 'postcode', country: 'country' } as const

export function userAddressRepository(db: Kysely<Database>): UserAddressRepository {
  return {
    async listByUser(userId) {
      const rows = await db.selectFrom('addresses').selectAll().where('user_id', '=', userId).orderBy('id').execute()
      return rows.map(rowToAddress)
    },
    async findById(id) {
      const row = await db.selectFrom('addresses').selectAll().where('id', '=', id).executeTakeFirst()
      return row && rowToAddress(row)
    },
    async insert(userId, fields) {
      const row = await db
        .insertInto('addresses')
        .values({ ...toColumns(fields, COLUMNS), user_id: userId })
        .returningAll()
        .executeTakeFirstOrThrow()
      return rowToAddress(row)
    },
    async update(id, patch) {
      const row = await db
        .updateTable('addresses')
        .set({ ...toColumns(patch, COLUMNS), updated_at: sql<Date>`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
      return rowToAddress(row)
    },
    async remove(id) {
      await db.deleteFrom('addresses').where('id', '=', id).execute()
    },
    async removeAllForUser(userId) {
      await db.deleteFrom('addresses').where('user_id', '=', userId).execute()
    },
  }
}
