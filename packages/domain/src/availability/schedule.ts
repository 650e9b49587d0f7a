import { err, ok, type Result } from 'neverthrow'
import { LESSON_TYPES, isIsoDate, validationFailed, type FieldErrors, type IsoDate, type LessonTypeName, type ValidationFailed } from '../shared'
import { parseWallTime } from './wall-time'

export const WEEKDAYS = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'] as const
export type Weekday = (typeof WEEKDAYS)[number]

/** `from` inclusive, `to` exclusive, wall-clock in the tutor's time zone. */
export type TimeWindow = { from: string; to: string }

/**
 * One weekly schedule entry (CONTRACT.md §13 "Day availability"). The optional teach
 * filters narrow the entry to one subject, level or exam board; `null` means any.
 */
export type ScheduleEntry = {
  day: Weekday
  windows: readonly TimeWindow[]
  lessonTypes: readonly LessonTypeName[]
  bufferMinutes: number
  subjectId?: number | null
  subjectLevelId?: number | null
  examBoardId?: number | null
}

/** Inclusive dates in the tutor's time zone. */
export type Holiday = { startDate: IsoDate; endDate: IsoDate }

export const MAX_BUFFER_MINUTES = 240

const windowErrors = (windows: readonly TimeWindow[]): string[] => {
  if (windows.length === 0) return ['needs at least one window']
  const parsed = windows.map((w) => ({ from: parseWallTime(w.from), to: parseWallTime(w.to) }))
  if (parsed.some((w) => w.from === undefined || w.to === undefined || w.from === 1440)) return ['times are HH:MM, 00:00 to 24:00']
  if (parsed.some((w) => (w.to ?? 0) <= (w.from ?? 0))) return ['each window ends after it starts']
  const sorted = [...parsed].sort((a, b) => (a.from ?? 0) - (b.from ?? 0))
  const overlaps = sorted.some((w, i) => i > 0 && (w.from ?? 0) < (sorted[i - 1]?.to ?? 0))
  return overlaps ? ['windows of one day may not overlap'] : []
}

/** What the day-availability routes must check before a schedule is saved. */
export const validateScheduleEntry = (entry: ScheduleEntry): Result<ScheduleEntry, ValidationFailed> => {
  const errors: FieldErrors = {}
  if (!WEEKDAYS.includes(entry.day)) errors.day = ['must be SUNDAY to SATURDAY']
  const slots = windowErrors(entry.windows)
  if (slots.length > 0) errors.slots = slots
  const types = new Set(entry.lessonTypes)
  if (types.size === 0 || types.size !== entry.lessonTypes.length || [...types].some((t) => !LESSON_TYPES.includes(t))) {
    errors.lesson_types = ['one or more distinct lesson types']
  }
  if (!Number.isInteger(entry.bufferMinutes) || entry.bufferMinutes < 0 || entry.bufferMinutes > MAX_BUFFER_MINUTES) {
    errors.buffer_minutes = [`a whole number of minutes from 0 to ${MAX_BUFFER_MINUTES}`]
  }
  return Object.keys(errors).length > 0 ? err(validationFailed(errors)) : ok(entry)
}

export const validateHoliday = (holiday: Holiday): Result<Holiday, ValidationFailed> => {
  if (!isIsoDate(holiday.startDate) || !isIsoDate(holiday.endDate)) {
    return err(validationFailed({ start_date: ['dates are YYYY-MM-DD'] }))
  }
  return holiday.endDate < holiday.startDate
    ? err(validationFailed({ end_date: ['must not be before start_date'] }))
    : ok(holiday)
}
