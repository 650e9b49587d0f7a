export * from './verification'
export * from './verification-record'
export * from './ports'
export { startIdentityCheck, type StartedIdentityCheck, type StartIdentityCheckError } from './start-identity-check'
export {
  recordProviderResult,
  CHECK_COMPLETED,
  VERIFICATION_EVENT_SOURCE,
  type ProviderEvent,
  type ProviderEventOutcome,
  type ProviderResultStatus,
} from './record-provider-result'
export { reviewVerification, type InternalReview, type ReviewVerificationError } from './review-verification'
export {
  submitVerificationDocument,
  DOCUMENT_KINDS,
  type DocumentKind,
  type SubmitDocumentError,
  type SubmitDocumentInput,
  type VerificationDocumentDeps,
} from './submit-verification-document'
