/**
 * A weekly schedule entry ("day availability"): on one weekday, some time windows in the
 * tutor's time zone, for some lesson types, with a buffer between lessons, optionally only
 * for one subject, level or exam board. The same weekday repeats every week.
 */
export const DAY_NAMES = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'] as const
export type DayName = (typeof DAY_NAMES)[number]

/** 0 = Sunday .. 6 = Saturday, as stored. */
export const dayIndexOf = (day: DayName): number => DAY_NAMES.indexOf(day)
export const dayNameOf = (index: number): DayName => {
  const name = DAY_NAMES[index]
  if (!name) throw new RangeError(`not a weekday index: ${index}`)
  return name
}

/** In lesson-type id order (TUTORS_HOME 1, STUDENTS_HOME 2, ONLINE 3). */
export const SCHEDULE_LESSON_TYPES = ['tutors_home', 'students_home', 'online'] as const
export type ScheduleLessonType = (typeof SCHEDULE_LESSON_TYPES)[number]

/** `from` inclusive, `to` exclusive, `HH:MM`. */
export type ScheduleSlot = { from: string; to: string }

export type DaySchedule = {
  id: number
  tutorId: number
  day: DayName
  slots: ScheduleSlot[]
  lessonTypes: ScheduleLessonType[]
  bufferMinutes: number
  subjectId: number | null
  subjectLevelId: number | null
  examBoardId: number | null
}

export type DayScheduleDraft = Omit<DaySchedule, 'id' | 'tutorId'>

export const BUFFER_MINUTES = { min: 0, max: 120, step: 5 } as const

export const offersInPerson = (entry: Pick<DaySchedule, 'lessonTypes'>): boolean =>
  entry.lessonTypes.some((type) => type !== 'online')
