import { err, ok, type Result } from 'neverthrow'
import { forbidden, ROLE_IDS, type Forbidden, type Actor } from '../shared'

/** A tutor's payout account. Only the last four digits of the number are kept. */
export type BankAccount = {
  id: number
  userId: number
  accountHolderName: string
  /** Six digits. */
  sortCode: string
  last4: string
  /** The processor's single-use token until linked. */
  processorToken: string | null
  processorBankAccountId: string | null
  /** The tutor's connected account at the processor. */
  processorAccountId: string | null
  linkedAt: Date | null
  isDefault: boolean
  createdAt: Date
}

export type NewBankAccount = {
  userId: number
  accountHolderName: string
  sortCode: string
  last4: string
  processorToken: string
  isDefault: boolean
}

/** "12-34-56", "12 34 56" and "123456" are the same sort code. */
export const normaliseSortCode = (sortCode: string): string => sortCode.replace(/[-\s]/g, '')

/** "12-34-56" for display. */
export const formatSortCode = (sortCode: string): string => sortCode.replace(/^(\d{2})(\d{2})(\d{2})$/, '$1-$2-$3')

/** Bank accounts are for payouts, so only tutors keep them (staff and other roles: 403). */
export const requireBankAccountHolder = (actor: Actor): Result<Actor, Forbidden> =>
  actor.roleId === ROLE_IDS.tutor ? ok(actor) : err(forbidden('Only tutors keep payout bank accounts.'))
