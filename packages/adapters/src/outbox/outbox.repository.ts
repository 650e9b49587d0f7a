import { sql, type Kysely } from 'kysely'
import type { Outbox, OutboxMessage } from '@tutoring/domain/outbox'
import type { Database } from '../db/database'
import type { OutboxKind, OutboxRow } from './outbox.table'

const topicOf = (message: OutboxMessage): string => {
  switch (message.kind) {
    case 'email':
      return message.template
    case 'push':
      return 'push'
    case 'processor_sync':
      return message.topic
  }
}

/**
 * Writes in the caller's transaction; a repeated dedupe key is a no-op. A message is due from
 * `now()`, the service's clock, which the worker's `claimDue` reads too: with the database's
 * own time an instance whose clock is behind it would leave the message waiting.
 */
export function outboxWriter(db: Kysely<Database>, now: () => Date): Outbox {
  return {
    async enqueue(message) {
      const { dedupeKey, ...payload } = message
      await db
        .insertInto('outbox')
        .values({ kind: message.kind, topic: topicOf(message), payload: JSON.stringify(payload), dedupe_key: dedupeKey ?? null, available_at: now() })
        .onConflict((oc) => oc.column('dedupe_key').doNothing())
        .execute()
    },
  }
}

export type ClaimedOutboxItem = { id: number; kind: OutboxKind; topic: string; payload: unknown; attempts: number }

/**
 * The worker's side. `claimDue` locks due rows with SKIP LOCKED and pushes their
 * `available_at` forward by the lease, so another instance skips them while this one works
 * and picks them up again if this one dies.
 */
export function outboxQueue(db: Kysely<Database>, now: () => Date) {
  return {
    async claimDue(now: Date, limit: number, leaseSeconds: number): Promise<ClaimedOutboxItem[]> {
      return db.transaction().execute(async (trx) => {
        const rows = await trx
          .selectFrom('outbox')
          .select(['id', 'kind', 'topic', 'payload', 'attempts'])
          .where('delivered_at', 'is', null)
          // Due at `now` itself; the extra millisecond also takes a row the column's default
          // stamped (the database's time, in microseconds) within the current millisecond.
          .where('available_at', '<', new Date(now.getTime() + 1))
          .orderBy('id')
          .limit(limit)
          .forUpdate()
          .skipLocked()
          .execute()
        if (rows.length === 0) return []
        await trx
          .updateTable('outbox')
          .set({ available_at: new Date(now.getTime() + leaseSeconds * 1000), attempts: sql`attempts + 1` })
          .where('id', 'in', rows.map((r) => r.id))
          .execute()
        return rows.map((r) => ({ ...r, attempts: r.attempts + 1 }))
      })
    },
    async markDelivered(id: number, at: Date): Promise<void> {
      await db.updateTable('outbox').set({ delivered_at: at, last_error: null, failed_at: null }).where('id', '=', id).execute()
    },
    /**
     * The item stays queued until `retryAt`; `failingSince` marks it as failing (kept from
     * the first time it was marked). Answers whether this call marked it, so staff are told once.
     */
    async markFailedAttempt(id: number, error: string, retryAt: Date, failingSince: Date | null): Promise<{ markedFailing: boolean }> {
      const before = await db.selectFrom('outbox').select('failed_at').where('id', '=', id).executeTakeFirst()
      await db
        .updateTable('outbox')
        .set({ last_error: error.slice(0, 2000), available_at: retryAt, ...(failingSince ? { failed_at: sql<Date>`coalesce(failed_at, ${failingSince})` } : {}) })
        .where('id', '=', id)
        .execute()
      return { markedFailing: failingSince !== null && before?.failed_at === null }
    },
    /** Undelivered items marked as failing, oldest first: what `cli outbox:failed` shows. */
    async listFailing(): Promise<OutboxRow[]> {
      return db.selectFrom('outbox').selectAll().where('delivered_at', 'is', null).where('failed_at', 'is not', null).orderBy('id').execute()
    },
    /** Makes undelivered items due now: the given ids, or every failing one. Answers their ids. */
    async redrive(target: { ids: number[] } | 'all-failing', now: Date): Promise<number[]> {
      let query = db.updateTable('outbox').set({ available_at: now }).where('delivered_at', 'is', null)
      query = target === 'all-failing' ? query.where('failed_at', 'is not', null) : query.where('id', 'in', target.ids.length > 0 ? target.ids : [-1])
      const rows = await query.returning('id').execute()
      return rows.map((r) => r.id)
    },
    /** Undelivered items: `failing` those past the failing threshold, `pending` the rest. */
    async depth(): Promise<{ pending: number; failing: number }> {
      const row = await db
        .selectFrom('outbox')
        .select((eb) => [
          eb.fn.countAll<string>().filterWhere('failed_at', 'is', null).as('pending'),
          eb.fn.countAll<string>().filterWhere('failed_at', 'is not', null).as('failing'),
        ])
        .where('delivered_at', 'is', null)
        .executeTakeFirstOrThrow()
      return { pending: Number(row.pending), failing: Number(row.failing) }
    },
    /** Which of `ids` are still waiting to be delivered. */
    async undelivered(ids: readonly number[]): Promise<number[]> {
      if (ids.length === 0) return []
      const rows = await db.selectFrom('outbox').select('id').where('id', 'in', [...ids]).where('delivered_at', 'is', null).execute()
      return rows.map((r) => r.id)
    },
    enqueue: (message: OutboxMessage) => outboxWriter(db, now).enqueue(message),
    async list(filter: { kind?: OutboxKind; topic?: string } = {}): Promise<OutboxRow[]> {
      let query = db.selectFrom('outbox').selectAll().orderBy('id')
      if (filter.kind) query = query.where('kind', '=', filter.kind)
      if (filter.topic) query = query.where('topic', '=', filter.topic)
      return query.execute()
    },
  }
}

export type OutboxQueue = ReturnType<typeof outboxQueue>
