import { repositoryPart } from '../db/repository-bag'
import { failingPayments, paymentRepository } from './payment.repository'
import { paymentEventLocks, paymentEventRepository } from './payment-event.repository'
import { tutorTransferRepository } from './tutor-transfer.repository'

/** The booking-payments context's part of the repository bag, and in a transaction the row locks its repositories take there. */
export const bookingPaymentsRepositories = repositoryPart({
  outside: (db) => ({
    payments: paymentRepository(db),
    paymentEvents: paymentEventRepository(db),
    tutorTransfers: tutorTransferRepository(db),
    failingPayments: failingPayments(db),
  }),
  locks: (trx, repos) => ({
    paymentEvents: { ...repos.paymentEvents, ...paymentEventLocks(trx) },
  }),
  names: { payments: true, paymentEvents: true, tutorTransfers: true, failingPayments: true },
})
