import type { Kysely } from 'kysely'
import type { AccessTokenRepository } from '@tutoring/domain'
import type { Database } from '../database'
import { rowToUser } from './user.repository'

const bytes = (hex: string): Buffer => Buffer.from(hex, 'hex')

export function accessTokenRepository(db: Kysely<Database>): AccessTokenRepository {
  return {
    async insert({ userId, tokenHash, expiresAt }) {
      await db.insertInto('access_tokens').values({ user_id: userId, token_hash: bytes(tokenHash), expires_at: expiresAt, revoked_at: null }).execute()
    },
    async findLiveUser(tokenHash, now) {
      // One statement on two unique indexes; a subquery plans cheaper than a join, which
      // matters on the embedded database, where planning runs in this process.
      const row = await db
        .selectFrom('users')
        .selectAll()
        .where('deleted_at', 'is', null)
        .where('id', '=', (eb) =>
          eb
            .selectFrom('access_tokens')
            .select('user_id')
            .where('token_hash', '=', bytes(tokenHash))
            .where('revoked_at', 'is', null)
            .where('expires_at', '>', now),
        )
        .executeTakeFirst()
      return row && rowToUser(row)
    },
    async revoke(tokenHash, at) {
      await db.updateTable('access_tokens').set({ revoked_at: at }).where('token_hash', '=', bytes(tokenHash)).where('revoked_at', 'is', null).execute()
    },
    async revokeAllForUser(userId, at) {
      await db.updateTable('access_tokens').set({ revoked_at: at }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute()
    },
  }
}
