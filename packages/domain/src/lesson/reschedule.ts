import type { Result } from 'neverthrow'
import type { Actor, Forbidden } from '../shared'
import { authorizeRescheduleProposal, authorizeRescheduleResponse, type LessonParties, type LessonSide } from './parties'
import type { LessonState } from './lesson-state'
import { transitionLesson, type LessonTransition, type LessonTransitionError } from './transitions'

export type RescheduleStep = { side: LessonSide; transition: LessonTransition }

/**
 * `PUT /api/lessons/{id}/edit`: who may propose, then the machine (proposed times, 72-hour
 * notice). The caller records `side` as the lesson's proposer and checks the proposed times
 * against availability.
 */
export const proposeReschedule = (input: {
  actor: Actor
  parties: LessonParties
  lesson: { state: LessonState; start: Date }
  proposedStart: Date
  proposedFinish: Date
  now: Date
}): Result<RescheduleStep, Forbidden | LessonTransitionError> =>
  authorizeRescheduleProposal(input.actor, input.parties).andThen((side) =>
    transitionLesson(input.lesson.state, 'propose_reschedule', {
      now: input.now,
      originalStart: input.lesson.start,
      proposedStart: input.proposedStart,
      proposedFinish: input.proposedFinish,
    }).map((transition) => ({ side, transition })),
  )

/** `PUT /api/lessons/{id}/approve`: state first (409 whoever asks), then the other party only, then expiry. */
export const approveReschedule = (input: {
  actor: Actor
  parties: LessonParties
  lesson: { state: LessonState; proposedBy: LessonSide | null; proposalExpiresAt: Date | null }
  now: Date
}): Result<RescheduleStep, Forbidden | LessonTransitionError> =>
  authorizeRescheduleResponse({ ...input, response: 'approve' }).andThen((side) => {
    if (input.lesson.proposalExpiresAt === null) throw new Error('a lesson in RESCHEDULE must record its expiry')
    return transitionLesson(input.lesson.state, 'approve', {
      now: input.now,
      expiresAt: input.lesson.proposalExpiresAt,
    }).map((transition) => ({ side, transition }))
  })
