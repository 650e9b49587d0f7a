/**
 * Payments' ports in memory (cards, payout bank accounts, processor customers and the users
 * they belong to) for the card and bank-account use-case tests.
 */
import type { User } from '@tutoring/domain/accounts'
import type { OutboxMessage } from '@tutoring/domain/outbox'
import type { BankAccount, PaymentsDeps, PaymentsRepos, PayoutAccountState, SavedCard } from '@tutoring/domain/payments'
import { ROLE_IDS, type RoleId } from '@tutoring/domain/shared'
import { fakeClock, fakePaymentProcessor, memoryUnitOfWork, notFakedIn, outboxOf, paymentCustomersOf, payoutAccountsOf } from './fakes'

export type PaymentsWorldState = {
  users: User[]
  cards: Array<SavedCard & { deletedAt: Date | null }>
  bankAccounts: Array<BankAccount & { deletedAt: Date | null }>
  customers: Array<{ userId: number; customerId: string }>
  payoutAccounts: Array<PayoutAccountState & { at: Date }>
  outbox: OutboxMessage[]
  nextId: number
}

const notFaked = notFakedIn('payments world')

export function paymentsWorld(now: string) {
  const state: PaymentsWorldState = { users: [], cards: [], bankAccounts: [], customers: [], payoutAccounts: [], outbox: [], nextId: 1 }
  const id = () => state.nextId++
  const live = <T extends { deletedAt: Date | null }>(rows: T[]) => rows.filter((r) => r.deletedAt === null)
  const strip = <T extends { deletedAt: Date | null }>({ deletedAt: _deleted, ...row }: T) => structuredClone(row)
  const newestFirst = <T extends { createdAt: Date; id: number }>(a: T, b: T) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id

  const repos: PaymentsRepos = {
    cards: {
      listLive: async (userId) =>
        live(state.cards)
          .filter((c) => c.userId === userId)
          .sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || newestFirst(a, b))
          .map(strip),
      findLive: async (cardId) => {
        const card = live(state.cards).find((c) => c.id === cardId)
        return card && strip(card)
      },
      findLiveByPaymentMethod: async (userId, paymentMethodId) => {
        const card = live(state.cards).find((c) => c.userId === userId && c.paymentMethodId === paymentMethodId)
        return card && strip(card)
      },
      insert: async (userId, details) => {
        const card = { id: id(), userId, ...details, isDefault: false, createdAt: clock.now(), deletedAt: null }
        state.cards.push(card)
        return strip(card)
      },
      makeDefault: async (userId, cardId) => {
        for (const card of state.cards) if (card.userId === userId) card.isDefault = card.id === cardId
        return strip(state.cards.find((c) => c.id === cardId)!)
      },
      softDelete: async (cardId, at) => {
        const card = state.cards.find((c) => c.id === cardId)!
        Object.assign(card, { deletedAt: at, isDefault: false })
      },
      lockUser: async () => {},
    },
    bankAccounts: {
      listLive: async (userId) => live(state.bankAccounts).filter((a) => a.userId === userId).map(strip),
      findLive: async (accountId) => {
        const account = live(state.bankAccounts).find((a) => a.id === accountId)
        return account && strip(account)
      },
      lockLive: async (accountId) => {
        const account = live(state.bankAccounts).find((a) => a.id === accountId)
        return account && strip(account)
      },
      insert: async (draft) => {
        const account = { id: id(), ...draft, processorBankAccountId: null, processorAccountId: null, linkedAt: null, createdAt: clock.now(), deletedAt: null }
        state.bankAccounts.push(account)
        return strip(account)
      },
      update: async (accountId, change) => {
        const account = state.bankAccounts.find((a) => a.id === accountId)!
        if (change.accountHolderName !== undefined) account.accountHolderName = change.accountHolderName
        return strip(account)
      },
      makeDefault: async (userId, accountId) => {
        for (const account of state.bankAccounts) if (account.userId === userId) account.isDefault = account.id === accountId
        return strip(state.bankAccounts.find((a) => a.id === accountId)!)
      },
      softDelete: async (accountId, at) => {
        Object.assign(state.bankAccounts.find((a) => a.id === accountId)!, { deletedAt: at, isDefault: false })
      },
      connectedAccountOf: async (userId) => state.bankAccounts.find((a) => a.userId === userId && a.processorAccountId !== null)?.processorAccountId ?? null,
      markLinked: async (accountId, linked) => {
        const account = state.bankAccounts.find((a) => a.id === accountId)!
        Object.assign(account, { processorAccountId: linked.processorAccountId, processorBankAccountId: linked.processorBankAccountId, linkedAt: linked.at, processorToken: null })
        return strip(account)
      },
      lockUser: async () => {},
    },
    payoutAccounts: payoutAccountsOf(state),
    paymentCustomers: paymentCustomersOf(state),
    users: {
      findById: async (userId) => structuredClone(state.users.find((u) => u.id === userId)),
      findByEmailWithPassword: notFaked('users.findByEmailWithPassword'),
      findByUsername: notFaked('users.findByUsername'),
      isEmailTaken: notFaked('users.isEmailTaken'),
      isUsernameTaken: notFaked('users.isUsernameTaken'),
      listByUsernamePrefix: notFaked('users.listByUsernamePrefix'),
      insert: notFaked('users.insert'),
      update: notFaked('users.update'),
      setPasswordHash: notFaked('users.setPasswordHash'),
      markEmailVerified: notFaked('users.markEmailVerified'),
      softDelete: notFaked('users.softDelete'),
    },
    outbox: outboxOf(state),
  }

  const clock = fakeClock(now)
  const processor = fakePaymentProcessor()
  const deps: PaymentsDeps = { uow: memoryUnitOfWork(repos, state), processor, clock }
  const addUser = (roleId: RoleId): User => {
    const userId = id()
    const user: User = { id: userId, email: `user${userId}@example.com`, username: `user${userId}`, firstname: 'Ada', lastname: `Lovelace${userId}`, roleId, country: 'GB', emailVerifiedAt: null, createdAt: clock.now() }
    state.users.push(user)
    return user
  }
  return {
    state,
    repos,
    deps,
    clock,
    processor,
    addStudent: () => addUser(ROLE_IDS.student),
    addTutor: () => addUser(ROLE_IDS.tutor),
    addStaff: () => addUser(ROLE_IDS.internal),
  }
}

export type PaymentsWorld = ReturnType<typeof paymentsWorld>
