import type { Kysely } from 'kysely'
import type { WebhookEventLog } from '@tutoring/domain/shared'
import type { Database } from '../db/database'

/** `webhook_events`: the (source, event id) key makes a repeated delivery a no-op. */
export function webhookEventLog(db: Kysely<Database>): WebhookEventLog {
  return {
    async record({ source, eventId, type, receivedAt }) {
      const inserted = await db
        .insertInto('webhook_events')
        .values({ source, event_id: eventId, type, received_at: receivedAt })
        .onConflict((oc) => oc.columns(['source', 'event_id']).doNothing())
        .returning('event_id')
        .executeTakeFirst()
      return inserted !== undefined
    },
  }
}
