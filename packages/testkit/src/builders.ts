import { WEEKDAYS, type BookedLesson, type ScheduleEntry, type TimeWindow, type Weekday } from '@tutoring/domain'

const MINUTE = 60_000

/**
 * The same windows on the given weekdays (every day by default), for tests and seed data:
 * `aWeeklySchedule([{ from: '09:00', to: '17:00' }], { bufferMinutes: 15 })`.
 */
export const aWeeklySchedule = (
  windows: readonly TimeWindow[],
  overrides: Partial<Omit<ScheduleEntry, 'day' | 'windows'>> & { days?: readonly Weekday[] } = {},
): ScheduleEntry[] => {
  const { days = WEEKDAYS, ...entry } = overrides
  return days.map((day) => ({
    day,
    windows,
    lessonTypes: ['online', 'tutors_home', 'students_home'],
    bufferMinutes: 0,
    ...entry,
  }))
}

/** A lesson of `minutes` from an ISO instant: `aBookedLesson('2026-06-02T10:00:00Z', 60)`. */
export const aBookedLesson = (start: string, minutes: number, overrides: Partial<BookedLesson> = {}): BookedLesson => {
  const startMs = Date.parse(start)
  if (Number.isNaN(startMs)) throw new RangeError(`not an instant: ${start}`)
  return { start: new Date(startMs), finish: new Date(startMs + minutes * MINUTE), inPerson: false, ...overrides }
}
