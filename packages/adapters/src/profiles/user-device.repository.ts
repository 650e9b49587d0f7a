import { sql, type Kysely } from 'kysely'
import type { UserDevice, UserDeviceRepository } from '@tutoring/domain/profiles'
import type { Database } from '../db/database'
import type { UserDeviceRow } from './user-devices.table'

const rowToDevice = (row: UserDeviceRow): UserDevice => ({
  id: row.id,
  userId: row.user_id,
  platform: row.platform,
  pushToken: row.push_token,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
})

export function userDeviceRepository(db: Kysely<Database>): UserDeviceRepository {
  return {
    async listByUser(userId) {
      const rows = await db.selectFrom('user_devices').selectAll().where('user_id', '=', userId).orderBy('id').execute()
      return rows.map(rowToDevice)
    },
    async findById(id) {
      const row = await db.selectFrom('user_devices').selectAll().where('id', '=', id).executeTakeFirst()
      return row && rowToDevice(row)
    },
    async claimToken(userId, { platform, pushToken }) {
      // One statement, so two users racing for a token can't both end up holding it.
      const row = await db
        .insertInto('user_devices')
        .values({ user_id: userId, platform, push_token: pushToken })
        .onConflict((oc) =>
          oc.expression(sql`md5(push_token)`).doUpdateSet({ user_id: userId, platform, updated_at: sql<Date>`now()` }),
        )
        .returningAll()
        .executeTakeFirstOrThrow()
      return rowToDevice(row)
    },
    async releaseToken(pushToken, exceptId) {
      await db.deleteFrom('user_devices').where('push_token', '=', pushToken).where('id', '<>', exceptId).execute()
    },
    async update(id, { platform, pushToken }) {
      const row = await db
        .updateTable('user_devices')
        .set({ platform, push_token: pushToken, updated_at: sql<Date>`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
      return rowToDevice(row)
    },
    async remove(id) {
      await db.deleteFrom('user_devices').where('id', '=', id).execute()
    },
  }
}
