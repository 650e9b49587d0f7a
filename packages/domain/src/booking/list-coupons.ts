import { ResultAsync } from 'neverthrow'
import type { PageOf, PageRequest } from '../shared'
import type { BookingDeps, StoredCoupon } from './ports'

/** `GET /api/coupons`: active, unexpired coupons; their uids are what customers type. */
export function listCoupons(deps: Pick<BookingDeps, 'uow' | 'clock'>, page: PageRequest): ResultAsync<PageOf<StoredCoupon>, never> {
  return ResultAsync.fromSafePromise(deps.uow.repos.coupons.list(page, deps.clock.now()))
}
