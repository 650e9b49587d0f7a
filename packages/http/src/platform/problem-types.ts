/**
 * Every problem `code` the API answers with (CONTRACT §2), and what it means to the person
 * reading its page. A Problem takes only a code of this list (ProblemCode), so no answer names
 * a `type` that has no page.
 */
export const PROBLEM_TYPES = {
  malformed_request: {
    title: 'Malformed request',
    statuses: [400],
    about: 'The body could not be read: it is not valid JSON, it is nested deeper than 64 levels, or its content type is not one the route takes (JSON everywhere; multipart only on uploads). Fix the request; sending it again as it is gives the same answer.',
  },
  invalid_signature: {
    title: 'Invalid signature',
    statuses: [400, 403],
    about: 'A webhook signature or token is missing, wrong or outside its tolerance (400), or a signed link is wrong or has expired (403). Ask for a fresh link; a webhook sender should check its secret.',
  },
  unauthenticated: {
    title: 'Unauthenticated',
    statuses: [401],
    about: 'The route needs a valid bearer token (`Authorization: Bearer <token>`, from login or registration), or for some routes a signed link or an emailed management secret, and none was valid. The answer names the scheme in `WWW-Authenticate`.',
  },
  invalid_credentials: {
    title: 'Invalid credentials',
    statuses: [401],
    about: 'Login failed. The same answer is given for an unknown email and for a wrong password.',
  },
  payment_failed: {
    title: 'Payment failed',
    statuses: [402],
    about: 'The payment processor declined the payment; `detail` gives its reason. Try another card or payment method.',
  },
  forbidden: {
    title: 'Forbidden',
    statuses: [403],
    about: 'You can see this record, but a policy does not let you do this to it (or the route is for internal staff only). A record you may not see answers 404 instead.',
  },
  not_found: {
    title: 'Not found',
    statuses: [404],
    about: 'No such record, or one you may not see (the answer never tells the two apart), or no route at this path.',
  },
  method_not_allowed: {
    title: 'Method not allowed',
    statuses: [405],
    about: 'The path exists but not with this method; the `Allow` header lists the methods it takes.',
  },
  slot_unavailable: {
    title: 'Slot unavailable',
    statuses: [409],
    about: 'The lesson time asked for is no longer free (someone booked it, or it left the schedule). For a weekly series, `conflicts` lists the starts of the weeks that are not free, and nothing was booked. Read the availability again and choose another time.',
  },
  invalid_state_transition: {
    title: 'Invalid state transition',
    statuses: [409],
    about: "The record is not in a state that allows this action (for example approving a lesson that is not in RESCHEDULE, or paying a booking already paid); `detail` names the state it is in. Read the record again before deciding what to do.",
  },
  idempotency_key_in_flight: {
    title: 'Idempotency key in flight',
    statuses: [409],
    about: 'The first request sent with this `Idempotency-Key` is still running. Retry shortly with the same key: you will get its answer.',
  },
  payload_too_large: {
    title: 'Payload too large',
    statuses: [413],
    about: 'The body (1 MiB for JSON) or the upload is over its limit.',
  },
  unsupported_media_type: {
    title: 'Unsupported media type',
    statuses: [415],
    about: "The upload's type, read from its content rather than its name, is not one this route accepts.",
  },
  validation_failed: {
    title: 'Validation failed',
    statuses: [422],
    about: 'Some fields are invalid. `errors` maps each field path (`address.postcode`, `child_ids.0`) to its messages; an unknown field or query parameter is named there too.',
  },
  reschedule_notice_too_short: {
    title: 'Reschedule notice too short',
    statuses: [422],
    about: 'A reschedule must be proposed at least 72 hours before the lesson starts.',
  },
  booking_window_exceeded: {
    title: 'Booking window exceeded',
    statuses: [422],
    about: 'Lessons can be booked from now to 14 days ahead; `detail` gives the dates.',
  },
  coupon_invalid: {
    title: 'Coupon invalid',
    statuses: [422],
    about: 'The coupon is unknown, expired or used up.',
  },
  too_many_pending_bookings: {
    title: 'Too many pending bookings',
    statuses: [422],
    about: 'You hold three unpaid bookings already: pay or cancel one before booking another.',
  },
  document_missing: {
    title: 'Document missing',
    statuses: [422],
    about: 'A verification cannot pass without its document: none was uploaded.',
  },
  lesson_not_finished: {
    title: 'Lesson not finished',
    statuses: [422],
    about: "A lesson can be rated after its finish (and its tutor reviewed once its payment is captured); `detail` gives the finish.",
  },
  idempotency_key_reused: {
    title: 'Idempotency key reused',
    statuses: [422],
    about: 'This `Idempotency-Key` was sent before with another request body. Use a new key for a new request.',
  },
  too_many_requests: {
    title: 'Too many requests',
    statuses: [429],
    about: 'The throttle was exceeded; wait the seconds `Retry-After` gives before trying again.',
  },
  internal_error: {
    title: 'Internal server error',
    statuses: [500],
    about: 'Something unexpected went wrong on our side. It was logged with the request id (the `X-Request-Id` header); nothing about it is shown in the answer.',
  },
  processor_unavailable: {
    title: 'Payment processor unavailable',
    statuses: [503],
    about: 'The payment processor did not answer in time, was rate limited or failed after retries. Nothing was done twice: retry after `Retry-After` seconds, with the same `Idempotency-Key` where the route takes one.',
  },
  service_unavailable: {
    title: 'Service unavailable',
    statuses: [503],
    about: 'The database does not answer, or the server is shutting down (GET /readyz); `checks` says which.',
  },
} as const satisfies Record<string, { title: string; statuses: readonly number[]; about: string }>

export type ProblemCode = keyof typeof PROBLEM_TYPES

const isCode = (name: string): name is ProblemCode => name in PROBLEM_TYPES
export const PROBLEM_CODES: readonly ProblemCode[] = Object.keys(PROBLEM_TYPES).filter(isCode)

/** A problem's `type` (RFC 9457 §3.1.1): the page describing it, on this service. */
export const problemTypeUri = (code: ProblemCode): string => `/problems/${slugOf(code)}`

export const slugOf = (code: ProblemCode): string => code.replace(/_/g, '-')
