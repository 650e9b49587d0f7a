import { ResultAsync } from 'neverthrow'
import { isInternal, type Actor, type PageOf, type PageRequest } from '../shared'
import type { BookingPayment } from '../booking'
import type { BookingPaymentsDeps } from './ports'

/** `GET /api/v1/payments`: the caller's own payments, newest first; staff see every payment. */
export function listPayments(deps: Pick<BookingPaymentsDeps, 'uow'>, actor: Actor, page: PageRequest): ResultAsync<PageOf<BookingPayment>, never> {
  return ResultAsync.fromSafePromise(deps.uow.repos.payments.list(isInternal(actor.roleId) ? {} : { userId: actor.id }, page))
}
