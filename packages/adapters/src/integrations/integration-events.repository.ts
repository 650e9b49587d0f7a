import { randomUUID } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import type { IntegrationEvents, WebhookDelivery } from '@tutoring/domain/integrations'
import { ROLE_IDS } from '@tutoring/domain/shared'
import type { Database } from '../db/database'
import { rowToDelivery } from './webhook-delivery.repository'

const newEventId = () => `msg_${randomUUID().replaceAll('-', '')}`

/**
 * Writes in the caller's transaction, in one statement: the event and one delivery per
 * matching endpoint, due at once. Who matches is decided here in SQL because it is a join over
 * every endpoint; the rule is CONTRACT §16's (the subscribed type; an owner who is a party, or staff).
 */
export function integrationEvents(db: Kysely<Database>): IntegrationEvents {
  return {
    async record({ type, subject, partyIds, at }) {
      await sql`
        with event as (
          insert into integration_events (id, type, subject_kind, subject_id, occurred_at)
          values (${newEventId()}, ${type}, ${subject.kind}, ${subject.id}, ${at})
          returning id
        )
        insert into webhook_deliveries (event_id, endpoint_id, created_at, next_attempt_at)
        select event.id, e.id, ${at}, ${at}
        from event, webhook_endpoints e join users u on u.id = e.owner_id
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
