/** SPEC.md "Lesson state": stored as numbers, named everywhere else. */
export const LESSON_STATES = { CANCELLED: 0, ACTIVE: 1, RESCHEDULE: 2 } as const
export type LessonState = keyof typeof LESSON_STATES

export const LESSON_STATE_NAMES: readonly LessonState[] = ['CANCELLED', 'ACTIVE', 'RESCHEDULE']

export const lessonStateOf = (value: number): LessonState | undefined =>
  LESSON_STATE_NAMES.find((name) => LESSON_STATES[name] === value)
