import { sql, type Kysely } from 'kysely'
import type { Database } from './database'

export type IdempotencyClaim =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'reused' }
  | { kind: 'in_flight' }

/** How long a key is remembered (CONTRACT §6: at least 24 hours). */
export const IDEMPOTENCY_TTL_HOURS = 48
/** A first request unfinished after this long died with its process: a repeat may take its key over. */
export const IDEMPOTENCY_ABANDONED_SECONDS = 120

/**
 * The `Idempotency-Key` store behind the HTTP middleware, one row per user and key. Each
 * call commits on its own, so a claim is visible to a concurrent repeat at once.
 */
export function idempotencyStore(db: Kysely<Database>) {
  return {
    async claim(userId: number, key: string, requestHash: string, now: Date): Promise<IdempotencyClaim> {
      const inserted = await db
        .insertInto('idempotency_keys')
        .values({ user_id: userId, key, request_hash: requestHash, created_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst()
      if (inserted) return { kind: 'claimed' }
      const row = await db.selectFrom('idempotency_keys').selectAll().where('user_id', '=', userId).where('key', '=', key).executeTakeFirst()
      if (!row) return this.claim(userId, key, requestHash, now)
      if (row.request_hash !== requestHash) return { kind: 'reused' }
      if (row.completed_at === null || row.response_status === null) {
        const abandonedBefore = new Date(now.getTime() - IDEMPOTENCY_ABANDONED_SECONDS * 1000)
        const taken = await db
          .updateTable('idempotency_keys')
          .set({ created_at: now })
          .where('user_id', '=', userId)
          .where('key', '=', key)
          .where('completed_at', 'is', null)
          .where('created_at', '<', abandonedBefore)
          .returning('key')
          .executeTakeFirst()
        return taken ? { kind: 'claimed' } : { kind: 'in_flight' }
      }
      return { kind: 'replay', status: row.response_status, body: row.response_body }
    },
    async complete(userId: number, key: string, status: number, body: unknown, now: Date): Promise<void> {
      await db
        .updateTable('idempotency_keys')
        .set({ response_status: status, response_body: JSON.stringify(body), completed_at: now })
        .where('user_id', '=', userId)
        .where('key', '=', key)
        .execute()
    },
    /** A request that failed unexpectedly leaves no trace, so the client may simply retry. */
    async release(userId: number, key: string): Promise<void> {
      await db.deleteFrom('idempotency_keys').where('user_id', '=', userId).where('key', '=', key).where('completed_at', 'is', null).execute()
    },
    async purge(now: Date): Promise<number> {
      const result = await db
        .deleteFrom('idempotency_keys')
        .where('created_at', '<', sql<Date>`${now}::timestamptz - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`)
        .executeTakeFirst()
      return Number(result.numDeletedRows)
    },
  }
}
export type IdempotencyStore = ReturnType<typeof idempotencyStore>
