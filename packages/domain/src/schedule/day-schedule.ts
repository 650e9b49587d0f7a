import type { LessonTypeName } from '../shared'

/**
 * The weekly schedule ("day availability"): on one weekday, some time windows in the tutor's
 * time zone, for some lesson types, with a buffer between lessons, optionally only for one
 * subject, level or exam board. The same weekday repeats every week. Availability slots
 * lessons into these windows and search checks that a tutor has one.
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

/** A time window (CONTRACT §13 calls them slots): `from` inclusive, `to` exclusive, `HH:MM`. */
export type ScheduleSlot = { from: string; to: string }

export type DaySchedule = {
  id: number
  tutorId: number
  day: DayName
  slots: ScheduleSlot[]
  lessonTypes: LessonTypeName[]
  bufferMinutes: number
  subjectId: number | null
  subjectLevelId: number | null
  examBoardId: number | null
}

export type DayScheduleDraft = Omit<DaySchedule, 'id' | 'tutorId'>

/**
 * An entry as availability and search read it: a stored DaySchedule, or one a test or the
 * demo data builds. A filter that is null or absent means any.
 */
export type WeeklyEntry = {
  day: DayName
  slots: readonly ScheduleSlot[]
  lessonTypes: readonly LessonTypeName[]
  bufferMinutes: number
  subjectId?: number | null
  subjectLevelId?: number | null
  examBoardId?: number | null
}

export const BUFFER_MINUTES = { min: 0, max: 120, step: 5 } as const
