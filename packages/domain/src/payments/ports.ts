import type { User, UserRepository } from '../accounts'
import type { Outbox } from '../outbox'
import type { Clock, UnitOfWork } from '../shared'
import type { BankAccount, NewBankAccount } from './bank-account'
import type { CardDetails, PaymentProcessor } from './payment-processor'
import type { SavedCard } from './saved-card'

/** Saved cards; "live" means not soft-deleted. */
export interface CardRepository {
  listLive(userId: number): Promise<SavedCard[]>
  findLive(id: number): Promise<SavedCard | undefined>
  findLiveByPaymentMethod(userId: number, paymentMethodId: string): Promise<SavedCard | undefined>
  insert(userId: number, card: CardDetails): Promise<SavedCard>
  /** This card becomes the user's one default; the others stop being it. */
  makeDefault(userId: number, cardId: number, at: Date): Promise<SavedCard>
  softDelete(id: number, at: Date): Promise<void>
  /** Serialises changes to one user's cards until the transaction ends. */
  lockUser(userId: number): Promise<void>
}

export interface BankAccountRepository {
  listLive(userId: number): Promise<BankAccount[]>
  findLive(id: number): Promise<BankAccount | undefined>
  lockLive(id: number): Promise<BankAccount | undefined>
  insert(account: NewBankAccount): Promise<BankAccount>
  update(id: number, change: { accountHolderName?: string }, at: Date): Promise<BankAccount>
  makeDefault(userId: number, id: number, at: Date): Promise<BankAccount>
  softDelete(id: number, at: Date): Promise<void>
  /** The connected account another of the user's linked bank accounts already uses. */
  connectedAccountOf(userId: number): Promise<string | null>
  markLinked(id: number, linked: { processorAccountId: string; processorBankAccountId: string; at: Date }): Promise<BankAccount>
  lockUser(userId: number): Promise<void>
}

/** A tutor's connected account as the processor last described it. */
export type PayoutAccountState = { accountId: string; userId: number; payoutsEnabled: boolean }

export interface PayoutAccountRepository {
  /** The account the tutor's linked bank accounts use; not enabled until the processor says so. */
  ofUser(userId: number): Promise<PayoutAccountState | undefined>
  /** A connected account this service linked, by the processor's id. */
  findById(accountId: string): Promise<PayoutAccountState | undefined>
  /**
   * Stores what the processor said of the account at `at` (the processor's clock); false,
   * changing nothing, when a later word about it is stored already. With `at` null (a word
   * of no known time, such as an answer read when linking), it is stored only when nothing
   * is known of the account yet, and any timed word replaces it.
   */
  record(state: PayoutAccountState & { at: Date | null }): Promise<boolean>
}

/** The processor customer of a user, kept on the user's row. */
export interface PaymentCustomerRepository {
  customerIdOf(userId: number): Promise<string | null>
  /** False when the user already has one (a concurrent request made it first). */
  claim(userId: number, customerId: string): Promise<boolean>
}

export interface PaymentsRepos {
  cards: CardRepository
  bankAccounts: BankAccountRepository
  paymentCustomers: PaymentCustomerRepository
  payoutAccounts: PayoutAccountRepository
  users: UserRepository
  outbox: Outbox
}

export type PaymentsDeps = {
  uow: UnitOfWork<PaymentsRepos>
  processor: PaymentProcessor
  clock: Clock
}

export type CustomerOwner = Pick<User, 'id' | 'email' | 'firstname' | 'lastname'>
