import { sql, type Kysely } from 'kysely'
import type { ClaimedDelivery, WebhookDelivery, WebhookDeliveryRepository, WebhookEventType, WebhookSubject } from '@tutoring/domain/integrations'
import type { RoleId } from '@tutoring/domain/shared'
import type { Database } from '../db/database'
import type { WebhookDeliveryRow } from './webhook-deliveries.table'

export const rowToDelivery = (r: WebhookDeliveryRow & { type: string }): WebhookDelivery => ({
  id: Number(r.id),
  endpointId: Number(r.endpoint_id),
  eventId: r.event_id,
  type: r.type as WebhookEventType,
  status: r.status,
  attempts: r.attempts,
  lastStatusCode: r.last_status_code,
  nextAttemptAt: r.next_attempt_at,
  createdAt: r.created_at,
})

const withType = (db: Kysely<Database>) =>
  db.selectFrom('webhook_deliveries as d').innerJoin('integration_events as ev', 'ev.id', 'd.event_id').selectAll('d').select('ev.type')

export function webhookDeliveryRepository(db: Kysely<Database>): WebhookDeliveryRepository {
  return {
    async listByEndpoint(endpointId, page) {
      const [rows, count] = await Promise.all([
        withType(db)
          .where('d.endpoint_id', '=', endpointId)
          .orderBy('d.id', 'desc')
          .limit(page.perPage)
          .offset((page.page - 1) * page.perPage)
          .execute(),
        db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<string>().as('n')).where('endpoint_id', '=', endpointId).executeTakeFirstOrThrow(),
      ])
      return { items: rows.map(rowToDelivery), total: Number(count.n) }
    },
    async findById(endpointId, id) {
      const row = await withType(db).where('d.endpoint_id', '=', endpointId).where('d.id', '=', id).executeTakeFirst()
      return row && rowToDelivery(row)
    },
    async retryNow(id, at) {
      await db.updateTable('webhook_deliveries').set({ status: 'pending', next_attempt_at: at }).where('id', '=', id).execute()
      return rowToDelivery(await withType(db).where('d.id', '=', id).executeTakeFirstOrThrow())
    },
    async claimDue(now, limit, leaseSeconds) {
      return db.transaction().execute(async (trx) => {
        const rows = await trx
          .selectFrom('webhook_deliveries as d')
          .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
          .innerJoin('integration_events as ev', 'ev.id', 'd.event_id')
          .innerJoin('users as u', 'u.id', 'e.owner_id')
          .selectAll('d')
          .select(['ev.type', 'ev.subject_kind', 'ev.subject_id', 'ev.occurred_at', 'e.url', 'e.secret', 'e.owner_id', 'u.role_id', 'u.email'])
          .where('e.enabled', '=', true)
          // A row stamped within the current millisecond is due (the database keeps microseconds).
          .where('d.next_attempt_at', '<', new Date(now.getTime() + 1))
          .orderBy('d.next_attempt_at')
          .limit(limit)
          .forUpdate('d')
          .skipLocked()
          .execute()
        if (rows.length === 0) return []
        await trx
          .updateTable('webhook_deliveries')
          .set({ next_attempt_at: new Date(now.getTime() + leaseSeconds * 1000), attempts: sql`attempts + 1`, last_attempt_at: now })
          .where('id', 'in', rows.map((r) => r.id))
          .execute()
        return rows.map(
          (r): ClaimedDelivery => ({
            ...rowToDelivery({ ...r, attempts: r.attempts + 1 }),
            endpoint: { id: Number(r.endpoint_id), url: r.url, secret: r.secret, owner: { id: Number(r.owner_id), roleId: r.role_id as RoleId }, ownerEmail: r.email },
            subject: { kind: r.subject_kind, id: Number(r.subject_id) } as WebhookSubject,
            occurredAt: r.occurred_at,
            body: r.body,
          }),
        )
      })
    },
    async saveBody(id, body) {
      await db.updateTable('webhook_deliveries').set({ body }).where('id', '=', id).where('body', 'is', null).execute()
    },
    async record(id, outcome) {
      await db
        .updateTable('webhook_deliveries')
        .set({
          status: outcome.status,
          last_status_code: outcome.lastStatusCode,
          last_error: outcome.lastError?.slice(0, 2000) ?? null,
          next_attempt_at: outcome.nextAttemptAt,
          last_attempt_at: outcome.at,
        })
        .where('id', '=', id)
        .execute()
    },
  }
}
