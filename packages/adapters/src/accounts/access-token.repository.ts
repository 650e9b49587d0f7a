import type { CompiledQuery, Kysely } from 'kysely'
import type { AccessTokenRepository } from '@tutoring/domain/accounts'
import type { Database } from '../db/database'
import { rowToUser, USER_COLUMNS } from './user.repository'

const bytes = (hex: string): Buffer => Buffer.from(hex, 'hex')

/**
 * The user a live token names: one statement on two unique indexes; a subquery plans
 * cheaper than a join, which matters on the embedded database, where planning runs in this
 * process. Compiled with stand-in values, bound to real ones by `bound`.
 */
const liveUserStatement = (db: Kysely<Database>) =>
  db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where('deleted_at', 'is', null)
    .where('id', '=', (eb) =>
      eb
        .selectFrom('access_tokens')
        .select('user_id')
        .where('token_hash', '=', Buffer.alloc(0))
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', new Date(0)),
    )
    .compile()

/** A compiled statement with other values for its parameters, in the order they appear in it. */
const bound = <R>(statement: CompiledQuery<R>, parameters: unknown[]): CompiledQuery<R> => ({ ...statement, parameters })

export function accessTokenRepository(db: Kysely<Database>): AccessTokenRepository {
  // Every authenticated request looks its token up: the statement is built and compiled
  // once, on first use, and each request only binds its values.
  let liveUser: ReturnType<typeof liveUserStatement> | undefined
  return {
    async insert({ userId, tokenHash, expiresAt }) {
      await db.insertInto('access_tokens').values({ user_id: userId, token_hash: bytes(tokenHash), expires_at: expiresAt, revoked_at: null }).execute()
    },
    async findLiveUser(tokenHash, now) {
      liveUser ??= liveUserStatement(db)
      const { rows } = await db.executeQuery(bound(liveUser, [bytes(tokenHash), now]))
      return rows[0] && rowToUser(rows[0])
    },
    async revoke(tokenHash, at) {
      await db.updateTable('access_tokens').set({ revoked_at: at }).where('token_hash', '=', bytes(tokenHash)).where('revoked_at', 'is', null).execute()
    },
    async revokeAllForUser(userId, at) {
      await db.updateTable('access_tokens').set({ revoked_at: at }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute()
    },
  }
}
