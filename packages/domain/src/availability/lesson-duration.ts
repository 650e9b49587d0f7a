export type DurationPreference = { min: number; max: number; default: number }

/** CONTRACT.md §5: lessons of 30 to 120 minutes, 60 when a client names none. */
export const DURATION_PREFERENCE: DurationPreference = { min: 30, max: 120, default: 60 }

/**
 * The one lesson-length rule of search, availability and booking: a whole number of minutes
 * within the preference. Undefined when `minutes` keeps it, else the message for the field
 * that carries the length (`duration`, or a booking's `finish`).
 */
export const lessonDurationProblem = (minutes: number): string | undefined =>
  Number.isInteger(minutes) && minutes >= DURATION_PREFERENCE.min && minutes <= DURATION_PREFERENCE.max
    ? undefined
    : `the lesson lasts a whole number of minutes from ${DURATION_PREFERENCE.min} to ${DURATION_PREFERENCE.max}`
