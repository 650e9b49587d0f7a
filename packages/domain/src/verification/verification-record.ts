import type { VerificationKind, VerificationStatus } from './verification'

/** A stored status; NONE is the absence of a record. */
export type StoredVerificationStatus = Exclude<VerificationStatus, 'NONE'>

/** One verification account: a tutor's check of one kind. */
export type VerificationRecord = {
  id: number
  userId: number
  kind: VerificationKind
  status: StoredVerificationStatus
  /** The provider's check id (identity) or our own (dbs, qualification); the webhook names it. */
  reference: string
  redirectUrl: string | null
  documentFileId: string | null
  certificateNumber: string | null
  issueDate: string | null
  reviewedBy: number | null
  createdAt: Date
  updatedAt: Date
}

export const statusOf = (record: VerificationRecord | undefined): VerificationStatus => record?.status ?? 'NONE'

/** The machine never leads back to NONE; a row holding it would be a bug. */
export const storedStatus = (status: VerificationStatus): StoredVerificationStatus => {
  if (status === 'NONE') throw new Error('a verification cannot return to NONE')
  return status
}
