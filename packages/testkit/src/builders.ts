import type { BookedLesson } from '@tutoring/domain/availability'
import { DAY_NAMES, type DayName, type ScheduleSlot, type WeeklyEntry } from '@tutoring/domain/schedule'

const MINUTE = 60_000

/**
 * The same windows on the given weekdays (every day by default), for tests and seed data:
 * `aWeeklySchedule([{ from: '09:00', to: '17:00' }], { bufferMinutes: 15 })`.
 */
export const aWeeklySchedule = (
  slots: readonly ScheduleSlot[],
  overrides: Partial<Omit<WeeklyEntry, 'day' | 'slots'>> & { days?: readonly DayName[] } = {},
): WeeklyEntry[] => {
  const { days = DAY_NAMES, ...entry } = overrides
  return days.map((day) => ({
    day,
    slots,
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
