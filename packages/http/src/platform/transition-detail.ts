/**
 * The `detail` of a 409 `invalid_state_transition`, in words a client can show: the domain
 * names machines, triggers and states as identifiers (`experience_rating`, `expire_hold`,
 * `REQUIRES_CAPTURE`); this says them as a sentence, "Cannot rate this lesson: it is already
 * rated." An identifier without a phrase here still reads, with its underscores as spaces.
 */

/** What the machine's record is to the client. */
const NOUNS: Readonly<Record<string, string>> = { experience_rating: 'lesson' }

/** What the trigger asked to do to it. */
const ACTIONS: Readonly<Record<string, string>> = {
  pay: 'pay for',
  expire_hold: 'let go the hold of',
  propose_reschedule: 'propose a new time for',
  change_payment_method: 'change the card of',
  submit: 'submit a document for',
  provider_passed: 'pass',
  provider_failed: 'fail',
  provider_referred: 'refer for review',
  internal_passed: 'pass',
  internal_failed: 'fail',
}

/** The state it is in, after "it is". */
const STATES: Readonly<Record<string, string>> = {
  rated: 'already rated',
  ACTIVE: 'active, with no new time proposed',
  RESCHEDULE: 'waiting for an answer to a new time',
  CANCELLED: 'cancelled',
  cancelled: 'cancelled',
  AWAITING_PAYMENT: 'awaiting payment',
  hold_expired: 'no longer held (its hold expired unpaid)',
  PAYED: 'paid',
  REQUIRES_CAPTURE: 'authorised and awaiting capture',
  REFUNDED: 'refunded',
  PARTIAL_REFUNDED: 'partly refunded',
  succeeded: 'captured',
  requires_capture: 'authorised and awaiting capture',
  canceled: 'cancelled',
  NONE: 'not started',
  PENDING: 'pending',
  PASS: 'passed',
  FAIL: 'failed',
  INTERNAL_REVIEW: 'under internal review',
  none: 'not known yet',
}

const words = (identifier: string): string => identifier.replace(/_/g, ' ').toLowerCase()

export const transitionDetail = (e: { machine: string; from: string; trigger: string }): string =>
  `Cannot ${ACTIONS[e.trigger] ?? words(e.trigger)} this ${NOUNS[e.machine] ?? words(e.machine)}: it is ${STATES[e.from] ?? words(e.from)}.`
