import { ResultAsync } from 'neverthrow'
import { isInternal, type Actor, type PageOf, type PageRequest } from '../shared'
import type { BookingAggregate } from './booking-record'
import type { BookingDeps } from './ports'

/**
 * `GET /api/bookings`: internal staff see every booking, others those they are a party to
 * (booker or tutor). `self`: only those the caller made as student or parent.
 */
export function listBookings(
  deps: Pick<BookingDeps, 'uow'>,
  actor: Actor,
  query: { self: boolean; page: PageRequest },
): ResultAsync<PageOf<BookingAggregate>, never> {
  const filter = query.self ? { bookerId: actor.id } : isInternal(actor.roleId) ? {} : { partyId: actor.id }
  return ResultAsync.fromSafePromise(deps.uow.repos.bookings.list(filter, query.page))
}
