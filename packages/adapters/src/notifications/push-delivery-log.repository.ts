import type { Kysely } from 'kysely'
import { PUSH_CALLBACK_RETENTION_DAYS, PUSH_EVENT_SOURCE, type PushDeliveryLog } from '@tutoring/domain/notifications'
import type { Database } from '../db/database'

/** `push_deliveries`, as the outbox worker wrote them, receiving the provider's receipts (each its first only). */
export function pushDeliveryLog(db: Kysely<Database>): PushDeliveryLog {
  return {
    async recordReceipt(providerMessageId, status, at) {
      const result = await db
        .updateTable('push_deliveries')
        .set({ receipt_status: status, receipt_at: at })
        .where('provider_message_id', '=', providerMessageId)
        .where('outcome', '=', 'sent')
        .where('receipt_status', 'is', null)
        .executeTakeFirst()
      return Number(result.numUpdatedRows)
    },
  }
}

/**
 * Forgets the push callbacks received more than `PUSH_CALLBACK_RETENTION_DAYS` before `now`
 * (CONTRACT §15); other sources' events stay. Answers how many went.
 */
export async function purgePushCallbacks(db: Kysely<Database>, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - PUSH_CALLBACK_RETENTION_DAYS * 86_400_000)
  const result = await db.deleteFrom('webhook_events').where('source', '=', PUSH_EVENT_SOURCE).where('received_at', '<', cutoff).executeTakeFirst()
  return Number(result.numDeletedRows)
}
