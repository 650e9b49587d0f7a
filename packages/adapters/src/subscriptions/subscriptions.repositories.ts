import { repositoryPart } from '../db/repository-bag'
import { subscriptionLocks, subscriptionRepository } from './subscription.repository'

/** The subscriptions context's part of the repository bag, and in a transaction the row locks its repositories take there. */
export const subscriptionsRepositories = repositoryPart({
  outside: (db) => ({
    subscriptions: subscriptionRepository(db),
  }),
  locks: (trx, repos) => ({
    subscriptions: { ...repos.subscriptions, ...subscriptionLocks(trx) },
  }),
  names: { subscriptions: true },
})
