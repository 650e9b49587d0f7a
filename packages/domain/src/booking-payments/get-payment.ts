import { ResultAsync } from 'neverthrow'
import { notFound, type Actor, type NotFound } from '../shared'
import type { BookingPayment } from '../booking'
import { findVisiblePayment } from './legacy-payments'
import type { BookingPaymentsDeps } from './ports'

/** `GET /api/v1/payments/{id}`: to its payer, the lesson's tutor and staff; anyone else 404. */
export function getPayment(deps: Pick<BookingPaymentsDeps, 'uow'>, actor: Actor, paymentId: number): ResultAsync<BookingPayment, NotFound> {
  return new ResultAsync(
    findVisiblePayment(deps.uow.repos, actor, paymentId, 'read').then((found) => found.map((f) => f.payment).mapErr(() => notFound('payment'))),
  )
}
