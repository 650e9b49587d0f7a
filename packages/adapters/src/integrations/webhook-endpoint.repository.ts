import { sql, type Kysely, type Transaction } from 'kysely'
import type { WebhookEndpoint, WebhookEndpointRepository, WebhookEventType } from '@tutoring/domain/integrations'
import type { Database } from '../db/database'
import { lockUserRow, type Locks } from '../db/row-locks'
import type { WebhookEndpointRow } from './webhook-endpoints.table'

const rowToEndpoint = (r: WebhookEndpointRow): WebhookEndpoint => ({
  id: Number(r.id),
  ownerId: Number(r.owner_id),
  url: r.url,
  events: r.events as WebhookEventType[],
  description: r.description,
  enabled: r.enabled,
  secret: r.secret,
  failingSince: r.failing_since,
  createdAt: r.created_at,
})

export function webhookEndpointRepository(db: Kysely<Database>): Omit<WebhookEndpointRepository, 'lockOwner'> {
  return {
    async countByOwner(ownerId) {
      const row = await db.selectFrom('webhook_endpoints').select((eb) => eb.fn.countAll<string>().as('n')).where('owner_id', '=', ownerId).executeTakeFirstOrThrow()
      return Number(row.n)
    },
    async insert(e) {
      const row = await db
        .insertInto('webhook_endpoints')
        .values({ owner_id: e.ownerId, url: e.url, events: JSON.stringify(e.events), description: e.description, secret: e.secret, created_at: e.createdAt })
        .returningAll()
        .executeTakeFirstOrThrow()
      return rowToEndpoint(row)
    },
    async findById(id) {
      const row = await db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst()
      return row && rowToEndpoint(row)
    },
    async listByOwner(ownerId, page) {
      const [rows, total] = await Promise.all([
        db
          .selectFrom('webhook_endpoints')
          .selectAll()
          .where('owner_id', '=', ownerId)
          .orderBy('id')
          .limit(page.perPage)
          .offset((page.page - 1) * page.perPage)
          .execute(),
        this.countByOwner(ownerId),
      ])
      return { items: rows.map(rowToEndpoint), total }
    },
    async update(id, patch) {
      const changes = {
        ...(patch.url !== undefined ? { url: patch.url } : {}),
        ...(patch.events !== undefined ? { events: JSON.stringify(patch.events) } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
        ...(patch.secret !== undefined ? { secret: patch.secret } : {}),
        ...(patch.failingSince !== undefined ? { failing_since: patch.failingSince } : {}),
      }
      // A PUT naming no field changes nothing (an UPDATE with nothing to set is not SQL).
      const row =
        Object.keys(changes).length === 0
          ? await db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
          : await db.updateTable('webhook_endpoints').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
      return rowToEndpoint(row)
    },
    async delete(id) {
      await db.deleteFrom('webhook_endpoints').where('id', '=', id).execute()
    },
    async noteAttempt(id, succeeded, at) {
      await db
        .updateTable('webhook_endpoints')
        .set({ failing_since: succeeded ? null : sql<Date>`coalesce(failing_since, ${at})` })
        .where('id', '=', id)
        .execute()
    },
    async claimFailingSince(before, limit) {
      const rows = await db
        .selectFrom('webhook_endpoints as e')
        .innerJoin('users as u', 'u.id', 'e.owner_id')
        .selectAll('e')
        .select('u.email as owner_email')
        .where('e.enabled', '=', true)
        .where('e.failing_since', '<=', before)
        .orderBy('e.id')
        .limit(limit)
        .forUpdate('e')
        .skipLocked()
        .execute()
      return rows.map((r) => ({ ...rowToEndpoint(r), ownerEmail: r.owner_email }))
    },
  }
}

/** The owner's users row: one endpoint decision at a time per owner, so ten stays ten. */
export function webhookEndpointLocks(trx: Transaction<Database>): Locks<WebhookEndpointRepository> {
  return {
    lockOwner: (ownerId) => lockUserRow(trx, ownerId),
  }
}
