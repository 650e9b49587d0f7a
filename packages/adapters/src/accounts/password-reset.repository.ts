import type { Kysely } from 'kysely'
import type { PasswordResetRepository } from '@tutoring/domain/accounts'
import type { Database } from '../db/database'

export function passwordResetRepository(db: Kysely<Database>): PasswordResetRepository {
  return {
    async insert({ userId, tokenHash, createdAt }) {
      await db.insertInto('password_resets').values({ user_id: userId, token_hash: Buffer.from(tokenHash, 'hex'), created_at: createdAt, used_at: null }).execute()
    },
    async findUsable(tokenHash, notBefore) {
      const row = await db
        .selectFrom('password_resets')
        .select(['id', 'user_id'])
        .where('token_hash', '=', Buffer.from(tokenHash, 'hex'))
        .where('used_at', 'is', null)
        .where('created_at', '>=', notBefore)
        .executeTakeFirst()
      return row && { id: row.id, userId: row.user_id }
    },
    async markAllUsed(userId, at) {
      await db.updateTable('password_resets').set({ used_at: at }).where('user_id', '=', userId).where('used_at', 'is', null).execute()
    },
  }
}
