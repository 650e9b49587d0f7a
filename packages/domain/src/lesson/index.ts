export { lessonNotFinished, type LessonNotFinished, type ProposalNotExpired, type RescheduleNoticeTooShort } from './errors'
export { LESSON_STATE_NAMES, LESSON_STATES, type LessonState, lessonStateOf } from './lesson-state'
export { authorizeRescheduleResponse, type LessonParties, type LessonSide } from './parties'
export { rateExperience, type RateExperienceError } from './rating'
export { approveReschedule, proposeReschedule, type RescheduleStep } from './reschedule'
export {
  type EmailRecipients,
  type LessonContexts,
  type LessonEffect,
  type LessonEffectSpec,
  type LessonEmailTemplate,
  type LessonTransition,
  type LessonTransitionError,
  type LessonTrigger,
  transitionLesson,
} from './transitions'
