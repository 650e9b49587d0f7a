import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../db/database'
import { failingPayments, paymentRepository } from './payment.repository'
import { paymentEventLocks, paymentEventRepository } from './payment-event.repository'
import { tutorTransferRepository } from './tutor-transfer.repository'

/** The booking-payments context's part of the repository bag, outside a transaction: no locks. */
export function bookingPaymentsRepositories(db: Kysely<Database>) {
  return {
    payments: paymentRepository(db),
    paymentEvents: paymentEventRepository(db),
    tutorTransfers: tutorTransferRepository(db),
    failingPayments: failingPayments(db),
  }
}

/** The same part bound to a transaction: its repositories with the row locks they take there. */
export function withBookingPaymentsLocks(trx: Transaction<Database>, repos: ReturnType<typeof bookingPaymentsRepositories>) {
  return {
    paymentEvents: { ...repos.paymentEvents, ...paymentEventLocks(trx) },
  }
}
