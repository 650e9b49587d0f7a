import type { FieldErrors } from '@tutoring/domain/shared'
import { problemTypeUri, type ProblemCode } from './problem-types'

export type ProblemBody = {
  type: string
  title: string
  status: number
  detail?: string
  code: string
  errors?: FieldErrors
}

/**
 * An RFC 9457 answer raised from a handler or middleware; the one `onError` renders it.
 * Nothing else the service throws ever reaches a client as anything but 500.
 */
export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly code: ProblemCode,
    readonly title: string,
    readonly detail?: string,
    readonly errors?: FieldErrors,
    readonly headers: Record<string, string> = {},
    /** Extension members (RFC 9457 §3.2) beside the standard ones, such as /readyz's checks. */
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(detail ?? title)
  }

  body(): ProblemBody {
    return {
      ...this.extensions,
      type: problemTypeUri(this.code),
      title: this.title,
      status: this.status,
      ...(this.detail ? { detail: this.detail } : {}),
      code: this.code,
      ...(this.errors ? { errors: this.errors } : {}),
    }
  }

  toResponse(): Response {
    return new Response(JSON.stringify(this.body()), {
      status: this.status,
      headers: { 'content-type': 'application/problem+json; charset=utf-8', ...this.headers },
    })
  }
}

/** What a 503 `processor_unavailable` asks the client to wait: about the SDK's retries once more. */
export const PROCESSOR_RETRY_AFTER_SECONDS = 5

export const problems = {
  malformed: (detail: string) => new Problem(400, 'malformed_request', 'Malformed request', detail),
  invalidSignature: (status: 400 | 403, detail: string) => new Problem(status, 'invalid_signature', 'Invalid signature', detail),
  // RFC 9110 §15.5.2: a 401 names the scheme that would work (RFC 6750's Bearer).
  unauthenticated: () => new Problem(401, 'unauthenticated', 'Unauthenticated', 'A valid bearer token is required.', undefined, { 'www-authenticate': 'Bearer' }),
  forbidden: (detail = 'You may not do this.') => new Problem(403, 'forbidden', 'Forbidden', detail),
  notFound: (detail = 'No such resource.') => new Problem(404, 'not_found', 'Not found', detail),
  methodNotAllowed: (allow: string[]) =>
    new Problem(405, 'method_not_allowed', 'Method not allowed', `Allowed: ${allow.join(', ')}.`, undefined, {
      allow: allow.join(', '),
    }),
  payloadTooLarge: (detail: string) => new Problem(413, 'payload_too_large', 'Payload too large', detail),
  unsupportedMediaType: (detail: string) => new Problem(415, 'unsupported_media_type', 'Unsupported media type', detail),
  validation: (errors: FieldErrors) =>
    new Problem(422, 'validation_failed', 'Validation failed', 'Some fields are invalid.', errors),
  tooManyRequests: (retryAfter: number) =>
    new Problem(429, 'too_many_requests', 'Too many requests', `Try again in ${retryAfter} seconds.`, undefined, {
      'retry-after': String(retryAfter),
    }),
  internal: () => new Problem(500, 'internal_error', 'Internal server error'),
  /** The processor timed out, was rate limited or failed after its retries; the same request may simply be sent again. */
  processorUnavailable: () =>
    new Problem(503, 'processor_unavailable', 'Payment processor unavailable', 'The payment processor did not answer in time. Retrying is safe: a payment is never taken twice.', undefined, {
      'retry-after': String(PROCESSOR_RETRY_AFTER_SECONDS),
    }),
  idempotencyKeyReused: () =>
    new Problem(422, 'idempotency_key_reused', 'Idempotency key reused', 'This Idempotency-Key was sent before with another request body.'),
  idempotencyKeyInFlight: () =>
    new Problem(409, 'idempotency_key_in_flight', 'Idempotency key in flight', 'The first request with this Idempotency-Key is still running; retry shortly.'),
}
