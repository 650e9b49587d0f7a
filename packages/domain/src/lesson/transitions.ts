import { err, ok, type Result } from 'neverthrow'
import {
  HOUR_MS,
  RESCHEDULE_NOTICE_HOURS,
  fieldError,
  invalidStateTransition,
  selectTransition,
  tableMisuse,
  type InvalidStateTransition,
  type NoContext,
  type TransitionRow,
  type ValidationFailed,
} from '../shared'
import { proposalNotExpired, rescheduleNoticeTooShort, type ProposalNotExpired, type RescheduleNoticeTooShort } from './errors'
import type { LessonState } from './lesson-state'
import { isProposalExpired, proposalExpiresAt } from './proposal'

export type LessonTrigger = 'create' | 'propose_reschedule' | 'approve' | 'decline' | 'expire' | 'cancel' | 'expire_hold'
export type LessonGuard = 'reschedule_notice' | 'proposal_open' | 'proposal_expired'
export type LessonEmailTemplate = 'lesson_reschedule' | 'lesson_booked' | 'lesson_cancelled'
/** `counterparty`: the party that did not act (the one asked to accept a proposal). */
export type EmailRecipients = 'counterparty' | 'participants'

export type LessonEffectSpec =
  | { type: 'SetSuggestedTimes' }
  | { type: 'ApplySuggestedTimes' }
  | { type: 'ClearSuggestedTimes' }
  | { type: 'QueueEmail'; template: LessonEmailTemplate; to: EmailRecipients }
  /** Hands the money to the booking machine: `full`, or by who cancels and the policy tiers. */
  | { type: 'RefundBooking'; basis: 'full' | 'policy' }

export type LessonEffect =
  | Exclude<LessonEffectSpec, { type: 'SetSuggestedTimes' }>
  | { type: 'SetSuggestedTimes'; start: Date; finish: Date; expiresAt: Date }

/** What each trigger needs to know; the record's own fields, not the request's. */
export type LessonContexts = {
  create: NoContext
  propose_reschedule: { now: Date; originalStart: Date; proposedStart: Date; proposedFinish: Date }
  approve: { now: Date; expiresAt: Date }
  decline: NoContext
  expire: { now: Date; expiresAt: Date }
  cancel: NoContext
  expire_hold: NoContext
}

type LessonRow = TransitionRow<LessonState | 'NEW', LessonTrigger, LessonGuard, LessonEffectSpec, LessonState>

const cancelledByRescheduleOutcome: readonly LessonEffectSpec[] = [
  { type: 'ClearSuggestedTimes' },
  { type: 'RefundBooking', basis: 'full' },
  { type: 'QueueEmail', template: 'lesson_cancelled', to: 'participants' },
]
const cancelledByParty: readonly LessonEffectSpec[] = [
  { type: 'RefundBooking', basis: 'policy' },
  { type: 'QueueEmail', template: 'lesson_cancelled', to: 'participants' },
]

/**
 * SPEC.md "Lesson state", row by row, plus what CONTRACT.md §6 adds: the decline trigger, the
 * proposal expiry, the 15-minute hold of an unpaid booking, and cancelling while a proposal is
 * pending (SPEC.md lists cancel from ACTIVE only; a customer should not have to wait up to
 * 48 h for a proposal to lapse before cancelling, so RESCHEDULE cancels the same way).
 */
export const LESSON_TRANSITIONS: readonly LessonRow[] = [
  { from: 'NEW', trigger: 'create', to: 'ACTIVE', effects: [] },
  {
    from: 'ACTIVE',
    trigger: 'propose_reschedule',
    guard: 'reschedule_notice',
    to: 'RESCHEDULE',
    effects: [{ type: 'SetSuggestedTimes' }, { type: 'QueueEmail', template: 'lesson_reschedule', to: 'counterparty' }],
  },
  {
    from: 'RESCHEDULE',
    trigger: 'approve',
    guard: 'proposal_open',
    to: 'ACTIVE',
    effects: [{ type: 'ApplySuggestedTimes' }, { type: 'QueueEmail', template: 'lesson_booked', to: 'participants' }],
  },
  { from: 'RESCHEDULE', trigger: 'decline', to: 'CANCELLED', effects: cancelledByRescheduleOutcome },
  { from: 'RESCHEDULE', trigger: 'expire', guard: 'proposal_expired', to: 'CANCELLED', effects: cancelledByRescheduleOutcome },
  { from: 'ACTIVE', trigger: 'cancel', to: 'CANCELLED', effects: cancelledByParty },
  {
    from: 'RESCHEDULE',
    trigger: 'cancel',
    to: 'CANCELLED',
    effects: [{ type: 'ClearSuggestedTimes' }, ...cancelledByParty],
  },
  { from: 'ACTIVE', trigger: 'expire_hold', to: 'CANCELLED', effects: [] },
  { from: 'RESCHEDULE', trigger: 'expire_hold', to: 'CANCELLED', effects: [{ type: 'ClearSuggestedTimes' }] },
]

type LessonInput = { [K in LessonTrigger]: { trigger: K; context: LessonContexts[K] } }[LessonTrigger]

export type LessonTransitionError =
  | InvalidStateTransition
  | RescheduleNoticeTooShort
  | ProposalNotExpired
  | ValidationFailed

/**
 * The proposed times must make sense (finish after start, in the future; the length may differ
 * from the original's), and the original start must be at least 72 hours away.
 */
const checkProposal = (c: LessonContexts['propose_reschedule']): Result<void, LessonTransitionError> => {
  if (c.proposedFinish.getTime() <= c.proposedStart.getTime()) {
    return err(fieldError('suggested_finish', 'must be after suggested_start'))
  }
  if (c.proposedStart.getTime() <= c.now.getTime()) {
    return err(fieldError('suggested_start', 'must be in the future'))
  }
  const noticeMs = c.originalStart.getTime() - c.now.getTime()
  if (noticeMs < RESCHEDULE_NOTICE_HOURS * HOUR_MS) {
    return err(rescheduleNoticeTooShort(RESCHEDULE_NOTICE_HOURS, Math.floor((noticeMs / HOUR_MS) * 100) / 100))
  }
  return ok(undefined)
}

const checkGuard = (guard: LessonGuard, input: LessonInput): Result<void, LessonTransitionError> => {
  switch (guard) {
    case 'reschedule_notice':
      return input.trigger === 'propose_reschedule' ? checkProposal(input.context) : tableMisuse('lesson', guard, input.trigger)
    case 'proposal_open':
      // A proposal past its expiry is dead even if the expiry worker has not run yet.
      if (input.trigger !== 'approve') return tableMisuse('lesson', guard, input.trigger)
      return isProposalExpired(input.context.expiresAt, input.context.now)
        ? err(invalidStateTransition('lesson', 'RESCHEDULE', 'approve'))
        : ok(undefined)
    case 'proposal_expired':
      if (input.trigger !== 'expire') return tableMisuse('lesson', guard, input.trigger)
      return isProposalExpired(input.context.expiresAt, input.context.now)
        ? ok(undefined)
        : err(proposalNotExpired(input.context.expiresAt))
  }
}

const materialize = (spec: LessonEffectSpec, input: LessonInput): LessonEffect => {
  if (spec.type !== 'SetSuggestedTimes') return spec
  if (input.trigger !== 'propose_reschedule') return tableMisuse('lesson', spec.type, input.trigger)
  const c = input.context
  return {
    type: 'SetSuggestedTimes',
    start: c.proposedStart,
    finish: c.proposedFinish,
    expiresAt: proposalExpiresAt(c.now, c.originalStart),
  }
}

export type LessonTransition = { to: LessonState; effects: LessonEffect[] }

export const transitionLesson = <T extends LessonTrigger>(
  from: LessonState | 'NEW',
  trigger: T,
  context: LessonContexts[T],
): Result<LessonTransition, LessonTransitionError> => {
  // TypeScript cannot correlate a generic trigger with its context; the signature already has.
  const input = { trigger, context } as LessonInput
  return selectTransition('lesson', LESSON_TRANSITIONS, from, trigger, (guard) => checkGuard(guard, input)).map(
    (row) => ({ to: row.to, effects: row.effects.map((spec) => materialize(spec, input)) }),
  )
}
