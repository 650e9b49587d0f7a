import type { Kysely } from 'kysely'
import type { PushDeliveryLog } from '@tutoring/domain/notifications'
import type { Database } from '../db/database'

/** `push_deliveries`, as the outbox worker wrote them, receiving the provider's receipts. */
export function pushDeliveryLog(db: Kysely<Database>): PushDeliveryLog {
  return {
    async recordReceipt(providerMessageId, status, at) {
      const result = await db
        .updateTable('push_deliveries')
        .set({ receipt_status: status, receipt_at: at })
        .where('provider_message_id', '=', providerMessageId)
        .executeTakeFirst()
      return Number(result.numUpdatedRows)
    },
  }
}
