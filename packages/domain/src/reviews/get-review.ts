import { errAsync, okAsync, ResultAsync } from 'neverthrow'
import { notFound, type NotFound } from '../shared'
import type { Review, ReviewsDeps } from './ports'

/** One review (the `review.created` webhook's payload); reviews are public, as the summary shows them. */
export function getReview(deps: Pick<ReviewsDeps, 'uow'>, id: number): ResultAsync<Review, NotFound> {
  return ResultAsync.fromSafePromise(deps.uow.repos.reviews.findById(id)).andThen((found) => (found ? okAsync(found) : errAsync(notFound('review'))))
}
