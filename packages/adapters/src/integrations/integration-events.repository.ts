import { randomUUID } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import type { IntegrationEvents, WebhookDelivery } from '@tutoring/domain/integrations'
import { ROLE_IDS } from '@tutoring/domain/shared'
import type { Database } from '../db/database'
import { rowToDelivery } from './webhook-delivery.repository'

const newEventId = () => `msg_${randomUUID().replaceAll('-', '')}`

/**
 * Writes in the caller's transaction: the event, then one delivery per matching endpoint in
 * one statement, due at once. Who matches is decided here in SQL because it is a join over
 * every endpoint; the rule is CONTRACT §16's (the subscribed type; an owner who is a party, or staff).
 */
export function integrationEvents(db: Kysely<Database>): IntegrationEvents {
  return {
    async record({ type, subject, partyIds, at }) {
      const id = newEventId()
      await db.insertInto('integration_events').values({ id, type, subject_kind: subject.kind, subject_id: subject.id, occurred_at: at }).execute()
      await sql`
        insert into webhook_deliveries (event_id, endpoint_id, created_at, next_attempt_at)
        select ${id}, e.id, ${at}, ${at}
        from webhook_endpoints e join users u on u.id = e.owner_id
        where e.enabled
          and e.events @> ${JSON.stringify([type])}::jsonb
          and (e.owner_id in (${sql.join(partyIds.length > 0 ? [...partyIds] : [-1])}) or u.role_id = ${ROLE_IDS.internal})
      `.execute(db)
    },
    async recordFor(endpointId, { type, subject, at }): Promise<WebhookDelivery> {
      const id = newEventId()
      await db.insertInto('integration_events').values({ id, type, subject_kind: subject.kind, subject_id: subject.id, occurred_at: at }).execute()
      const row = await db
        .insertInto('webhook_deliveries')
        .values({ event_id: id, endpoint_id: endpointId, created_at: at, next_attempt_at: at })
        .returningAll()
        .executeTakeFirstOrThrow()
      return rowToDelivery({ ...row, type })
    },
  }
}
