import { repositoryPart } from '../db/repository-bag'
import { bankAccountLocks, bankAccountRepository } from './bank-account.repository'
import { cardLocks, cardRepository } from './card.repository'
import { paymentCustomerRepository } from './payment-customer.repository'
import { payoutAccountRepository } from './payout-account.repository'

/** The payments context's part of the repository bag, and in a transaction the row locks its repositories take there. */
export const paymentsRepositories = repositoryPart({
  outside: (db) => ({
    cards: cardRepository(db),
    bankAccounts: bankAccountRepository(db),
    paymentCustomers: paymentCustomerRepository(db),
    payoutAccounts: payoutAccountRepository(db),
  }),
  locks: (trx, repos) => ({
    cards: { ...repos.cards, ...cardLocks(trx) },
    bankAccounts: { ...repos.bankAccounts, ...bankAccountLocks(trx) },
  }),
  names: { cards: true, bankAccounts: true, paymentCustomers: true, payoutAccounts: true },
})
