import { err, ok, type Result } from 'neverthrow'
import { notFound, type NotFound } from '../shared'
import type { BookingPaymentsDeps, FailingPaymentWork } from './ports'
import { runDuePayments, type DuePaymentsReport } from './run-due-payments'

type Deps = Pick<BookingPaymentsDeps, 'uow' | 'clock' | 'processor' | 'config'>

/** Payments whose due authorisation or capture the processor keeps refusing (staff's list). */
export function listFailingPayments(deps: Pick<BookingPaymentsDeps, 'uow'>): Promise<FailingPaymentWork[]> {
  return deps.uow.repos.failingPayments.list()
}

/**
 * Staff's "try it again now" for one failing payment: its work is made due and the
 * due-payments run is done at once (other due rows are taken with it, as the job would).
 * A payment with no failing work is not found.
 */
export async function retryFailingPayment(deps: Deps, paymentId: number): Promise<Result<DuePaymentsReport, NotFound>> {
  if (!(await deps.uow.repos.failingPayments.retryNow(paymentId, deps.clock.now()))) return err(notFound('failing payment'))
  return ok(await runDuePayments(deps))
}
