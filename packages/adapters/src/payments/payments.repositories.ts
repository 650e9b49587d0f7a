import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../db/database'
import { bankAccountLocks, bankAccountRepository } from './bank-account.repository'
import { cardLocks, cardRepository } from './card.repository'
import { paymentCustomerRepository } from './payment-customer.repository'
import { payoutAccountRepository } from './payout-account.repository'

/** The payments context's part of the repository bag, outside a transaction: no locks. */
export function paymentsRepositories(db: Kysely<Database>) {
  return {
    cards: cardRepository(db),
    bankAccounts: bankAccountRepository(db),
    paymentCustomers: paymentCustomerRepository(db),
    payoutAccounts: payoutAccountRepository(db),
  }
}

/** The same part bound to a transaction: its repositories with the row locks they take there. */
export function withPaymentsLocks(trx: Transaction<Database>, repos: ReturnType<typeof paymentsRepositories>) {
  return {
    cards: { ...repos.cards, ...cardLocks(trx) },
    bankAccounts: { ...repos.bankAccounts, ...bankAccountLocks(trx) },
  }
}
