import { err, ok, type Result } from 'neverthrow'
import { forbidden, invalidStateTransition, type Actor, type Forbidden, type InvalidStateTransition } from '../shared'
import type { LessonState } from './lesson-state'

/** Who a lesson belongs to. The parent, when there is one, acts on the student's side. */
export type LessonParties = { tutorId: number; studentId: number; parentId: number | null }

/** The two parties of CONTRACT.md §13: the tutor, and the student with their parent. */
export type LessonSide = 'tutor' | 'student'

export const lessonSideOf = (actor: Actor, parties: LessonParties): LessonSide | undefined => {
  if (actor.id === parties.tutorId) return 'tutor'
  if (actor.id === parties.studentId || (parties.parentId !== null && actor.id === parties.parentId)) {
    return 'student'
  }
  return undefined
}

/**
 * Either party may propose a reschedule. Internal staff are no party to a lesson and may not:
 * a proposal needs someone on the other side to answer it.
 */
export const authorizeRescheduleProposal = (actor: Actor, parties: LessonParties): Result<LessonSide, Forbidden> => {
  const side = lessonSideOf(actor, parties)
  return side ? ok(side) : err(forbidden('only the tutor, the student or their parent may propose a reschedule'))
}

/**
 * Only the party that did not propose may approve or decline. The state is checked first,
 * so answering a lesson that is not in RESCHEDULE is an invalid transition whoever asks.
 */
export const authorizeRescheduleResponse = (input: {
  actor: Actor
  parties: LessonParties
  lesson: { state: LessonState; proposedBy: LessonSide | null }
  response: 'approve' | 'decline'
}): Result<LessonSide, Forbidden | InvalidStateTransition> => {
  const { actor, parties, lesson, response } = input
  if (lesson.state !== 'RESCHEDULE') return err(invalidStateTransition('lesson', lesson.state, response))
  if (lesson.proposedBy === null) throw new Error('a lesson in RESCHEDULE must record who proposed')
  const side = lessonSideOf(actor, parties)
  if (side === undefined || side === lesson.proposedBy) {
    return err(forbidden('only the other party may answer a reschedule proposal'))
  }
  return ok(side)
}
