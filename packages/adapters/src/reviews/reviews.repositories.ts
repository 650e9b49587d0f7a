import { repositoryPart } from '../db/repository-bag'
import { reviewLocks, reviewRepository } from './review.repository'

/** The reviews context's part of the repository bag, and in a transaction the row locks its repositories take there. */
export const reviewsRepositories = repositoryPart({
  outside: (db) => ({
    reviews: reviewRepository(db),
  }),
  locks: (trx, repos) => ({
    reviews: { ...repos.reviews, ...reviewLocks(trx) },
  }),
  names: { reviews: true },
})
