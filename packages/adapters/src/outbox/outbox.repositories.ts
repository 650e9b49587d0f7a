import type { Kysely } from 'kysely'
import type { Database } from '../db/database'
import { outboxWriter } from './outbox.repository'

/** The outbox context's part of the repository bag, outside a transaction: no locks. `now` dates what it queues. */
export function outboxRepositories(db: Kysely<Database>, now: () => Date) {
  return {
    outbox: outboxWriter(db, now),
  }
}
