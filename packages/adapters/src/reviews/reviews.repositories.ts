import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../db/database'
import { reviewLocks, reviewRepository } from './review.repository'

/** The reviews context's part of the repository bag, outside a transaction: no locks. */
export function reviewsRepositories(db: Kysely<Database>) {
  return {
    reviews: reviewRepository(db),
  }
}

/** The same part bound to a transaction: its repositories with the row locks they take there. */
export function withReviewsLocks(trx: Transaction<Database>, repos: ReturnType<typeof reviewsRepositories>) {
  return {
    reviews: { ...repos.reviews, ...reviewLocks(trx) },
  }
}
