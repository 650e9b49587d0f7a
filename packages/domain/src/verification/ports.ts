import type { SecretTokens, UserRepository } from '../accounts'
import type { Outbox } from '../outbox'
import type { Clock, UnitOfWork, WebhookEventLog } from '../shared'
import type { VerificationKind } from './verification'
import type { StoredVerificationStatus, VerificationRecord } from './verification-record'

export type NewVerification = Pick<VerificationRecord, 'userId' | 'kind' | 'status' | 'reference' | 'redirectUrl' | 'documentFileId'> &
  Partial<Pick<VerificationRecord, 'certificateNumber' | 'issueDate'>>

/** A status change; the other fields change only when given. */
export type VerificationChange = {
  status: StoredVerificationStatus
  reference?: string
  redirectUrl?: string | null
  documentFileId?: string | null
  certificateNumber?: string | null
  issueDate?: string | null
  reviewedBy?: number | null
  at: Date
}

export interface VerificationRepository {
  findByUserAndKind(userId: number, kind: VerificationKind): Promise<VerificationRecord | undefined>
  /** The row, locked until the transaction ends. */
  lockByUserAndKind(userId: number, kind: VerificationKind): Promise<VerificationRecord | undefined>
  lockByReference(reference: string): Promise<VerificationRecord | undefined>
  /** Undefined when the user already has a row of that kind (a concurrent submission won). */
  insert(row: NewVerification): Promise<VerificationRecord | undefined>
  update(id: number, change: VerificationChange): Promise<VerificationRecord>
}

export type IdentityApplicant = { userId: number; email: string; firstname: string; lastname: string }

/** A check opened at the provider: its id, and the hosted page the tutor completes it on. */
export type IdentityCheck = { reference: string; redirectUrl: string | null }

/**
 * The external identity-verification provider. The result comes back later through the
 * webhook (CONTRACT.md §8), naming the check by `reference`. An unreachable provider throws.
 */
export interface IdentityProvider {
  readonly mode: 'live' | 'offline'
  startCheck(applicant: IdentityApplicant): Promise<IdentityCheck>
}

export interface VerificationRepos {
  users: UserRepository
  verifications: VerificationRepository
  webhookEvents: WebhookEventLog
  outbox: Outbox
}

export type VerificationDeps = {
  uow: UnitOfWork<VerificationRepos>
  identityProvider: IdentityProvider
  secrets: Pick<SecretTokens, 'randomSuffix'>
  clock: Clock
  config: { internalMailbox: string }
}
