import type { DomainError, DomainErrorType } from '@tutoring/domain'
import { accountsErrors } from '../accounts/accounts.errors'
import { availabilityErrors } from '../availability/availability.errors'
import { bookingErrors } from '../booking/booking.errors'
import { filesErrors } from '../files/files.errors'
import { paymentsErrors } from '../payments/payments.errors'
import { pricingErrors } from '../pricing/pricing.errors'
import { verificationErrors } from '../verification/verification.errors'
import type { ErrorRows, ErrorSpec } from './error-spec'
import { Problem } from './problem'
import { transitionDetail } from './transition-detail'

/** The error types the shared context declares, which any context may return. */
const GENERIC_ERRORS = {
  NotFound: { status: 404, code: 'not_found', title: 'Not found', detail: (e: { resource: string }) => `No such ${e.resource}.` },
  Forbidden: { status: 403, code: 'forbidden', title: 'Forbidden', detail: (e: { reason: string }) => e.reason },
  ValidationFailed: { status: 422, code: 'validation_failed', title: 'Validation failed' },
  InvalidStateTransition: {
    status: 409,
    code: 'invalid_state_transition',
    title: 'Invalid state transition',
    detail: transitionDetail,
  },
} satisfies ErrorRows

type KeysOf<T> = T extends unknown ? keyof T : never
/** The error types that more than one of the fragments names. */
type Repeated<F extends readonly ErrorRows[]> = F extends readonly [infer Head, ...infer Rest extends readonly ErrorRows[]]
  ? (keyof Head & KeysOf<Rest[number]>) | Repeated<Rest>
  : never
type Combined<F extends readonly ErrorRows[]> = F extends readonly [infer Head, ...infer Rest extends readonly ErrorRows[]] ? Head & Combined<Rest> : unknown

/** The fragments as one table; a type two fragments name does not compile (the error names it). */
const combine = <const F extends readonly ErrorRows[]>(fragments: F & ([Repeated<F>] extends [never] ? unknown : { 'has two rows': Repeated<F> })): Combined<F> =>
  Object.assign({}, ...fragments)

/**
 * Every domain error type, one status and code each (CONTRACT §2), shared by both route
 * families: the generic rows above, each context's beside its routes (`<context>/<context>.errors.ts`,
 * lesson's with booking's). The `satisfies` makes a domain error without a row a type error.
 */
const TABLE = combine([
  GENERIC_ERRORS,
  accountsErrors,
  filesErrors,
  verificationErrors,
  paymentsErrors,
  availabilityErrors,
  pricingErrors,
  bookingErrors,
]) satisfies Record<DomainErrorType, ErrorSpec>

export function problemFromDomain(error: DomainError): Problem {
  const spec: ErrorSpec = TABLE[error.type]
  const detail = spec.detail ? spec.detail(error as never) : undefined
  if (error.type === 'ValidationFailed') {
    return new Problem(spec.status, spec.code, spec.title, 'Some fields are invalid.', error.errors)
  }
  // Every 401 names the scheme that would work (RFC 9110 §15.5.2), as problems.unauthenticated does.
  const challenge: Record<string, string> = spec.status === 401 ? { 'www-authenticate': 'Bearer' } : {}
  const extensions = spec.extensions ? spec.extensions(error as never) : {}
  return new Problem(spec.status, spec.code, spec.title, detail, undefined, challenge, extensions)
}
