import { err, ok, type Result } from 'neverthrow'
import {
  fieldError,
  selectTransition,
  type InvalidStateTransition,
  type TransitionRow,
  type ValidationFailed,
} from '../shared'

export const VERIFICATION_KINDS = ['identity', 'dbs', 'qualification'] as const
export type VerificationKind = (typeof VERIFICATION_KINDS)[number]

/** CONTRACT.md §13: NONE until something is submitted, PENDING until a result. */
export const VERIFICATION_STATUSES = ['NONE', 'PENDING', 'PASS', 'FAIL', 'INTERNAL_REVIEW'] as const
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number]

export type DocumentMissing = { type: 'DocumentMissing'; kind: VerificationKind }
export const documentMissing = (kind: VerificationKind): DocumentMissing => ({ type: 'DocumentMissing', kind })

export type VerificationTrigger =
  | 'submit'
  | 'provider_passed'
  | 'provider_failed'
  | 'provider_referred'
  | 'internal_passed'
  | 'internal_failed'
export type VerificationGuard = 'document_reviewable' | 'document_uploaded'
export type VerificationEffect = {
  type: 'QueueEmail'
  template: 'tutor_id_verification_status_updated'
  to: 'internal_mailbox'
}

/** Every trigger is judged on the same two facts. */
export type VerificationContext = { kind: VerificationKind; documentUploaded: boolean }

type VerificationRow = TransitionRow<VerificationStatus, VerificationTrigger, VerificationGuard, VerificationEffect>

const tellTheTeam: readonly VerificationEffect[] = [
  { type: 'QueueEmail', template: 'tutor_id_verification_status_updated', to: 'internal_mailbox' },
]

const INTERNAL_REVIEWS: readonly VerificationKind[] = ['dbs', 'qualification']

/**
 * SPEC.md leaves the transitions "not shown"; this is the decision. A submission (identity
 * check started, document uploaded) makes PENDING, also as a resubmission after FAIL or a
 * replacement while PENDING. The provider's webhook answers PENDING (and settles its own
 * INTERNAL_REVIEW). Staff review dbs and qualification documents: a PASS needs the document,
 * and a FAIL may overturn an earlier PASS (a certificate found to be forged).
 */
export const VERIFICATION_TRANSITIONS: readonly VerificationRow[] = [
  { from: 'NONE', trigger: 'submit', to: 'PENDING', effects: [] },
  { from: 'PENDING', trigger: 'submit', to: 'PENDING', effects: [] },
  { from: 'FAIL', trigger: 'submit', to: 'PENDING', effects: [] },
  { from: 'PENDING', trigger: 'provider_passed', to: 'PASS', effects: tellTheTeam },
  { from: 'PENDING', trigger: 'provider_failed', to: 'FAIL', effects: tellTheTeam },
  { from: 'PENDING', trigger: 'provider_referred', to: 'INTERNAL_REVIEW', effects: tellTheTeam },
  { from: 'INTERNAL_REVIEW', trigger: 'provider_passed', to: 'PASS', effects: tellTheTeam },
  { from: 'INTERNAL_REVIEW', trigger: 'provider_failed', to: 'FAIL', effects: tellTheTeam },
  { from: 'NONE', trigger: 'internal_passed', guard: 'document_uploaded', to: 'PASS', effects: [] },
  { from: 'PENDING', trigger: 'internal_passed', guard: 'document_uploaded', to: 'PASS', effects: [] },
  { from: 'INTERNAL_REVIEW', trigger: 'internal_passed', guard: 'document_uploaded', to: 'PASS', effects: [] },
  { from: 'FAIL', trigger: 'internal_passed', guard: 'document_uploaded', to: 'PASS', effects: [] },
  { from: 'PENDING', trigger: 'internal_failed', guard: 'document_reviewable', to: 'FAIL', effects: [] },
  { from: 'INTERNAL_REVIEW', trigger: 'internal_failed', guard: 'document_reviewable', to: 'FAIL', effects: [] },
  { from: 'PASS', trigger: 'internal_failed', guard: 'document_reviewable', to: 'FAIL', effects: [] },
]

export type VerificationTransitionError = InvalidStateTransition | DocumentMissing | ValidationFailed

const checkGuard = (guard: VerificationGuard, c: VerificationContext): Result<void, VerificationTransitionError> => {
  if (!INTERNAL_REVIEWS.includes(c.kind)) return err(fieldError('kind', 'only dbs and qualification are reviewed internally'))
  if (guard === 'document_uploaded' && !c.documentUploaded) return err(documentMissing(c.kind))
  return ok(undefined)
}

export type VerificationTransition = { to: VerificationStatus; effects: VerificationEffect[] }

export const transitionVerification = (
  from: VerificationStatus,
  trigger: VerificationTrigger,
  context: VerificationContext,
): Result<VerificationTransition, VerificationTransitionError> =>
  selectTransition('verification', VERIFICATION_TRANSITIONS, from, trigger, (guard) => checkGuard(guard, context)).map(
    (row) => ({ to: row.to, effects: [...row.effects] }),
  )

/** The provider webhook's `data.status` (CONTRACT.md §8) as a trigger. */
export const providerResultTrigger = (status: 'PASS' | 'FAIL' | 'INTERNAL_REVIEW'): VerificationTrigger =>
  status === 'PASS' ? 'provider_passed' : status === 'FAIL' ? 'provider_failed' : 'provider_referred'

/** `PUT /api/tutors/{id}/verifications/{kind}` body `{status}` as a trigger. */
export const internalReviewTrigger = (status: 'PASS' | 'FAIL'): VerificationTrigger =>
  status === 'PASS' ? 'internal_passed' : 'internal_failed'

export type VerificationStatuses = Record<VerificationKind, VerificationStatus>

export const allVerificationsPassed = (statuses: VerificationStatuses): boolean =>
  VERIFICATION_KINDS.every((kind) => statuses[kind] === 'PASS')
