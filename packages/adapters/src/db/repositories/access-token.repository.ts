import type { Kysely } from 'kysely'
import type { AccessTokenRepository } from '@tutoring/domain'
import type { Database } from '../database'

const bytes = (hex: string): Buffer => Buffer.from(hex, 'hex')

export function accessTokenRepository(db: Kysely<Database>): AccessTokenRepository {
  return {
    async insert({ userId, tokenHash, expiresAt }) {
      await db.insertInto('access_tokens').values({ user_id: userId, token_hash: bytes(tokenHash), expires_at: expiresAt, revoked_at: null }).execute()
    },
    async findLiveUserId(tokenHash, now) {
      const row = await db
        .selectFrom('access_tokens as t')
        .innerJoin('users as u', 'u.id', 't.user_id')
        .select('t.user_id')
        .where('t.token_hash', '=', bytes(tokenHash))
        .where('t.revoked_at', 'is', null)
        .where('t.expires_at', '>', now)
        .where('u.deleted_at', 'is', null)
        .executeTakeFirst()
      return row?.user_id
    },
    async revoke(tokenHash, at) {
      await db.updateTable('access_tokens').set({ revoked_at: at }).where('token_hash', '=', bytes(tokenHash)).where('revoked_at', 'is', null).execute()
    },
    async revokeAllForUser(userId, at) {
      await db.updateTable('access_tokens').set({ revoked_at: at }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute()
    },
  }
}
