import type { AccountsDeps, AccountsRepos, ReferenceLookups } from '../accounts'
import type { CardDetails, PaymentProcessor } from '../payments'
import type { UnitOfWork } from '../shared'

export type RegistrationAddress = {
  line1: string
  line2: string | null
  city: string
  postcode: string
  country: string
}

/** The records a registration creates beside the user, all in its transaction. */
export interface RegistrationRecords {
  insertPersonalDetails(userId: number, details: { dateOfBirth: string | null }): Promise<void>
  insertAddress(userId: number, address: RegistrationAddress): Promise<void>
  insertMobileNumber(userId: number, number: string): Promise<void>
  insertProfile(userId: number, profile: { pictureFileId: string | null }): Promise<void>
  insertDbsVerification(
    userId: number,
    dbs: { certificateNumber: string; issueDate: string; reference: string },
  ): Promise<void>
  insertDefaultCard(userId: number, card: CardDetails): Promise<void>
  insertTrialSubscription(
    userId: number,
    subscription: { planId: number; trialEndsAt: Date },
  ): Promise<{ subscriptionId: number }>
}

/** What a registration reads besides the user: countries, the plan a tutor's trial is on, the uploaded picture. */
export interface RegistrationLookups extends ReferenceLookups {
  activeSubscriptionPlan(): Promise<{ id: number; priceId: string; trialPeriodDays: number } | undefined>
  /** An uploaded image nobody has claimed yet, or one the user already owns. */
  isClaimableImage(fileId: string, userId: number | null): Promise<boolean>
  claimFile(fileId: string, userId: number): Promise<void>
}

export interface RegistrationRepos extends AccountsRepos {
  registration: RegistrationRecords
  reference: RegistrationLookups
}

/** Accounts' dependencies, plus the processor a registration's card is checked with. */
export type RegistrationDeps = Omit<AccountsDeps, 'uow'> & {
  uow: UnitOfWork<RegistrationRepos>
  processor: PaymentProcessor
}
