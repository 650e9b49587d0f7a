import type { Kysely } from 'kysely'
import type { PushGateway, PushNotification, PushOutcome } from '@tutoring/domain/notifications'
import type { Database } from '../db/database'
import type { Logger } from '../logger'
import type { PushSender } from '../outbox'

/**
 * Delivers an outbox push to every device of its recipient, each through its platform's
 * provider. Each device served is recorded against the outbox row, so when one device's
 * provider fails and the row is retried, the others are not pushed twice. A token the
 * provider calls gone is deleted, unless the device took another token meanwhile.
 */
export function devicePushSender(db: Kysely<Database>, gateway: PushGateway, options: { ttlSeconds: number; logger: Logger }): PushSender {
  return {
    async send(message) {
      const devices = await db.selectFrom('user_devices').select(['id', 'platform', 'push_token']).where('user_id', '=', message.userId).orderBy('id').execute()
      if (devices.length === 0) return
      const served = await db.selectFrom('push_deliveries').select('device_id').where('outbox_id', '=', message.outboxId).execute()
      const done = new Set(served.map((row) => row.device_id))
      const notification: PushNotification = { title: message.title, body: message.body, data: stringValues(message.data), ttlSeconds: options.ttlSeconds }
      const failures: string[] = []
      for (const device of devices.filter((d) => !done.has(d.id))) {
        let outcome: PushOutcome
        try {
          outcome = await gateway.send({ platform: device.platform, token: device.push_token }, notification)
        } catch (error) {
          failures.push(error instanceof Error ? error.message : String(error))
          continue
        }
        if (outcome.outcome === 'gone') {
          await db.deleteFrom('user_devices').where('id', '=', device.id).where('push_token', '=', device.push_token).execute()
          options.logger.info({ deviceId: device.id, userId: message.userId, reason: outcome.reason }, 'push token gone: device removed')
        }
        await db
          .insertInto('push_deliveries')
          .values({
            outbox_id: message.outboxId,
            user_id: message.userId,
            device_id: device.id,
            platform: device.platform,
            outcome: outcome.outcome,
            provider_message_id: outcome.outcome === 'sent' ? outcome.providerMessageId : null,
          })
          .onConflict((oc) => oc.constraint('push_deliveries_once').doNothing())
          .execute()
      }
      if (failures.length > 0) throw new Error(`push failed for ${failures.length} of ${devices.length} devices: ${failures[0]}`)
    },
  }
}

/** Providers carry string values only: text as it is, anything else as JSON. */
function stringValues(data: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined || value === null) continue
    out[key] = typeof value === 'string' ? value : JSON.stringify(value)
  }
  return out
}
