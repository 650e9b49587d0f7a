import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../db/database'
import { subscriptionLocks, subscriptionRepository } from './subscription.repository'

/** The subscriptions context's part of the repository bag, outside a transaction: no locks. */
export function subscriptionsRepositories(db: Kysely<Database>) {
  return {
    subscriptions: subscriptionRepository(db),
  }
}

/** The same part bound to a transaction: its repositories with the row locks they take there. */
export function withSubscriptionsLocks(trx: Transaction<Database>, repos: ReturnType<typeof subscriptionsRepositories>) {
  return {
    subscriptions: { ...repos.subscriptions, ...subscriptionLocks(trx) },
  }
}
