export type {
  IdentityApplicant,
  IdentityCheck,
  IdentityProvider,
  NewVerification,
  VerificationChange,
  VerificationDeps,
  VerificationRepos,
  VerificationRepository,
} from './ports'
export {
  CHECK_COMPLETED,
  type ProviderEvent,
  type ProviderEventOutcome,
  type ProviderResultStatus,
  recordProviderResult,
} from './record-provider-result'
export { type InternalReview, reviewVerification, type ReviewVerificationError } from './review-verification'
export { type StartedIdentityCheck, startIdentityCheck, type StartIdentityCheckError } from './start-identity-check'
export {
  DOCUMENT_KINDS,
  type DocumentKind,
  type SubmitDocumentError,
  type SubmitDocumentInput,
  submitVerificationDocument,
  type VerificationDocumentDeps,
} from './submit-verification-document'
export {
  allVerificationsPassed,
  type DocumentMissing,
  VERIFICATION_KINDS,
  VERIFICATION_STATUSES,
  type VerificationKind,
  type VerificationStatus,
  type VerificationStatuses,
  transitionVerification,
  type VerificationContext,
  type VerificationEffect,
  type VerificationTransition,
  type VerificationTransitionError,
  type VerificationTrigger,
} from './verification'
export type { StoredVerificationStatus, VerificationRecord } from './verification-record'
