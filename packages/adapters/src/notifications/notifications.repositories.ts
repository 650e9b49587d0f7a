import type { Kysely } from 'kysely'
import type { Database } from '../db/database'
import { pushDeliveryLog } from './push-delivery-log.repository'

/** The notifications context's part of the repository bag, outside a transaction: no locks. */
export function notificationsRepositories(db: Kysely<Database>) {
  return {
    pushDeliveries: pushDeliveryLog(db),
  }
}
