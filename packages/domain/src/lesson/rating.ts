import { err, ok, type Result } from 'neverthrow'
import {
  EXPERIENCE_RATING,
  fieldError,
  forbidden,
  invalidStateTransition,
  type Actor,
  type Forbidden,
  type InvalidStateTransition,
  type ValidationFailed,
} from '../shared'
import { lessonNotFinished, type LessonNotFinished } from './errors'
import type { LessonState } from './lesson-state'
import { lessonSideOf, type LessonParties } from './parties'

export type RateExperienceError = Forbidden | ValidationFailed | InvalidStateTransition | LessonNotFinished

/**
 * experience_rating: once, by the lesson's student or parent, after the finish, 1 to 5.
 * Checks run in the order HTTP reports them: who (403), the value (422), the record's state
 * (409: cancelled or already rated), then the clock (422 lesson_not_finished).
 */
export const rateExperience = (input: {
  actor: Actor
  parties: LessonParties
  lesson: { state: LessonState; finish: Date; experienceRating: number | null }
  rating: number
  now: Date
}): Result<number, RateExperienceError> => {
  const { actor, parties, lesson, rating, now } = input
  if (lessonSideOf(actor, parties) !== 'student') {
    return err(forbidden('only the lesson\'s student or parent may rate it'))
  }
  if (!Number.isInteger(rating) || rating < EXPERIENCE_RATING.min || rating > EXPERIENCE_RATING.max) {
    return err(fieldError('experience_rating', 'must be a whole number from 1 to 5'))
  }
  if (lesson.state === 'CANCELLED') return err(invalidStateTransition('experience_rating', 'CANCELLED', 'rate'))
  if (lesson.experienceRating !== null) return err(invalidStateTransition('experience_rating', 'rated', 'rate'))
  if (now.getTime() < lesson.finish.getTime()) return err(lessonNotFinished(lesson.finish))
  return ok(rating)
}
