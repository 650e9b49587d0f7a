import type { Kysely } from 'kysely'
import type { Database } from '../db/database'
import { webhookEventLog } from './webhook-event-log.repository'

/** The webhooks context's part of the repository bag, outside a transaction: no locks. */
export function webhooksRepositories(db: Kysely<Database>) {
  return {
    webhookEvents: webhookEventLog(db),
  }
}
