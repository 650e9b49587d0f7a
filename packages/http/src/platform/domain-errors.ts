import type { DomainError } from '@tutoring/domain'
import { Problem } from './problem'

type Spec = { status: number; code: string; title: string; detail?: (error: never) => string }

/**
 * Every domain error type, one status and code each (CONTRACT §2), shared by both route
 * families. The `satisfies` makes a new domain error without a row here a type error.
 */
const TABLE = {
  NotFound: { status: 404, code: 'not_found', title: 'Not found', detail: (e: { resource: string }) => `No such ${e.resource}.` },
  Forbidden: { status: 403, code: 'forbidden', title: 'Forbidden', detail: (e: { reason: string }) => e.reason },
  ValidationFailed: { status: 422, code: 'validation_failed', title: 'Validation failed' },
  InvalidStateTransition: {
    status: 409,
    code: 'invalid_state_transition',
    title: 'Invalid state transition',
    detail: (e: { machine: string; from: string; trigger: string }) => `Cannot ${e.trigger} a ${e.machine} in state ${e.from}.`,
  },
  InvalidCredentials: {
    status: 401,
    code: 'invalid_credentials',
    title: 'Invalid credentials',
    detail: () => 'The email or the password is wrong.',
  },
  Unauthenticated: { status: 401, code: 'unauthenticated', title: 'Unauthenticated' },
  CardRejected: {
    status: 422,
    code: 'validation_failed',
    title: 'Validation failed',
    detail: (e: { reason: string }) => e.reason,
  },
  UnsupportedMediaType: {
    status: 415,
    code: 'unsupported_media_type',
    title: 'Unsupported media type',
    detail: (e: { detected: string | null; accepted: string[] }) =>
      `The content is ${e.detected ?? 'of no accepted type'}; this route takes ${e.accepted.join(', ')}.`,
  },
  PayloadTooLarge: {
    status: 413,
    code: 'payload_too_large',
    title: 'Payload too large',
    detail: (e: { limitBytes: number }) => `An upload of this type may be at most ${e.limitBytes} bytes.`,
  },
} satisfies Record<DomainError['type'], Spec>

export function problemFromDomain(error: DomainError): Problem {
  const spec: Spec = TABLE[error.type]
  const detail = spec.detail ? spec.detail(error as never) : undefined
  if (error.type === 'ValidationFailed') {
    return new Problem(spec.status, spec.code, spec.title, 'Some fields are invalid.', error.errors)
  }
  if (error.type === 'CardRejected') {
    return new Problem(spec.status, spec.code, spec.title, detail, { payment_method: [error.reason] })
  }
  return new Problem(spec.status, spec.code, spec.title, detail)
}
