import fc from 'fast-check'
import type { AvailabilityInput, AvailabilityRequest, Availability, BookedLesson, BusyInterval } from '@tutoring/domain/availability'
import { DAY_NAMES, formatClockTime, type Holiday, type ScheduleSlot, type WeeklyEntry } from '@tutoring/domain/schedule'
import { LESSON_TYPES, dayNumberOf, type LessonTypeName } from '@tutoring/domain/shared'

const MINUTE = 60_000
const DAY = 86_400_000

/** Zones with what can go wrong: DST, half-hour DST, odd offsets, the far side of the date line. */
export const TEST_TIME_ZONES = ['Europe/London', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Pacific/Auckland'] as const

/** One of TEST_TIME_ZONES, for a tutor's schedule. */
export const arbTimeZone = (): fc.Arbitrary<(typeof TEST_TIME_ZONES)[number]> => fc.constantFrom(...TEST_TIME_ZONES)

/**
 * One to three disjoint windows of a day between `earliest` and 23:59 (minutes after midnight).
 * Starting at 06:00 by default keeps windows clear of every test zone's clock changes, whose
 * gaps are tested by hand.
 */
export const arbDayWindows = (earliest = 360): fc.Arbitrary<ScheduleSlot[]> =>
  fc
    .uniqueArray(fc.integer({ min: earliest, max: 1439 }), { minLength: 2, maxLength: 6 })
    .map((points) => {
      const sorted = [...points].sort((a, b) => a - b)
      const even = sorted.length % 2 === 0 ? sorted : sorted.slice(0, -1)
      const windows: ScheduleSlot[] = []
      for (let i = 0; i + 1 < even.length; i += 2) {
        windows.push({ from: formatClockTime(even[i] ?? 0), to: formatClockTime(even[i + 1] ?? 0) })
      }
      return windows
    })

export const arbLessonTypes = (): fc.Arbitrary<LessonTypeName[]> =>
  fc.subarray([...LESSON_TYPES], { minLength: 1 })

/**
 * A weekly schedule: some weekdays, sometimes two entries on one day (which may overlap).
 * With `bufferMinutes` every entry shares it, so a test knows which buffer widened a lesson.
 */
export const arbWeeklySchedule = (options: { bufferMinutes?: number } = {}): fc.Arbitrary<WeeklyEntry[]> =>
  fc.array(
    fc.record({
      day: fc.constantFrom(...DAY_NAMES),
      slots: arbDayWindows(),
      lessonTypes: arbLessonTypes(),
      bufferMinutes: options.bufferMinutes === undefined ? fc.constantFrom(0, 10, 15, 30) : fc.constant(options.bufferMinutes),
    }),
    { minLength: 1, maxLength: 10 },
  )

/**
 * Lessons at any minute from `fromDays` to `toDays` days after `originMs`, 15 minutes to
 * 3 hours long, up to 40 of them (dense enough that days fill up and clash).
 */
export const arbBookedLessons = (originMs: number, fromDays = -1, toDays = 16): fc.Arbitrary<BookedLesson[]> =>
  fc.array(
    fc
      .record({
        startMinute: fc.integer({ min: fromDays * 1440, max: toDays * 1440 }),
        minutes: fc.integer({ min: 15, max: 180 }),
        inPerson: fc.boolean(),
        travelBeforeMinutes: fc.integer({ min: 0, max: 60 }),
        travelAfterMinutes: fc.integer({ min: 0, max: 60 }),
      })
      .map(({ startMinute, minutes, ...rest }) => {
        const start = Math.floor(originMs / MINUTE) * MINUTE + startMinute * MINUTE
        return { start: new Date(start), finish: new Date(start + minutes * MINUTE), ...rest }
      }),
    { maxLength: 40, size: 'medium' },
  )

export const arbBusyIntervals = (nowMs: number): fc.Arbitrary<BusyInterval[]> =>
  fc.array(
    fc.record({ startMinute: fc.integer({ min: -1440, max: 16 * 1440 }), minutes: fc.integer({ min: 5, max: 240 }) }).map(
      ({ startMinute, minutes }) => {
        const start = Math.floor(nowMs / MINUTE) * MINUTE + startMinute * MINUTE
        return { start: new Date(start), end: new Date(start + minutes * MINUTE) }
      },
    ),
    { maxLength: 5 },
  )

const isoDateOfMs = (ms: number): string => new Date(ms).toISOString().slice(0, 10)

export const arbHolidays = (nowMs: number): fc.Arbitrary<Holiday[]> =>
  fc.array(
    fc.record({ from: fc.integer({ min: -3, max: 18 }), days: fc.integer({ min: 0, max: 3 }) }).map(({ from, days }) => ({
      startDate: isoDateOfMs(nowMs + from * DAY),
      endDate: isoDateOfMs(nowMs + (from + days) * DAY),
    })),
    { maxLength: 2 },
  )

export type AvailabilityScenario = AvailabilityInput & { request: AvailabilityRequest & { utcOffsetMinutes: number; durationMinutes: number } }

/**
 * A whole availability question: a tutor somewhere (mostly London), now in 2026-2027, lessons,
 * events and holidays around now, and a request with or without a date, in any client offset.
 * `dateShare` is the share of requests that name a date (one day is far cheaper to check).
 */
/** `share` of the values from `some`, the rest from `other`. */
const shareOf = <A, B>(share: number, some: fc.Arbitrary<A>, other: fc.Arbitrary<B>): fc.Arbitrary<A | B> => {
  const weight = Math.round(share * 100)
  if (weight <= 0) return other
  if (weight >= 100) return some
  return fc.oneof({ weight, arbitrary: some }, { weight: 100 - weight, arbitrary: other })
}

export const arbAvailabilityScenario = (
  options: { bufferMinutes?: number; dateShare?: number } = {},
): fc.Arbitrary<AvailabilityScenario> =>
  fc
    .record({
      nowMinute: fc.integer({ min: Date.UTC(2026, 0, 1) / MINUTE, max: Date.UTC(2027, 11, 1) / MINUTE }),
      // Mostly a date inside the window; a few just outside it on either side.
      dateDays: shareOf(options.dateShare ?? 0.75, fc.integer({ min: -2, max: 16 }), fc.constant(undefined)),
    })
    .chain(({ nowMinute, dateDays }) => {
      const nowMs = nowMinute * MINUTE
      // Lessons crowd the asked day when there is one, so that they clash with its windows.
      const lessons = dateDays === undefined ? arbBookedLessons(nowMs) : arbBookedLessons(nowMs + dateDays * DAY, -2, 2)
      return fc.record({
        schedule: arbWeeklySchedule({ bufferMinutes: options.bufferMinutes }),
        timeZone: fc.oneof({ weight: 3, arbitrary: fc.constant('Europe/London') }, fc.constantFrom(...TEST_TIME_ZONES)),
        holidays: arbHolidays(nowMs),
        lessons,
        busy: arbBusyIntervals(nowMs),
        withinTravelDistance: fc.boolean(),
        now: fc.constant(new Date(nowMs)),
        request: fc.record({
          date: fc.constant(dateDays === undefined ? undefined : isoDateOfMs(nowMs + dateDays * DAY)),
          durationMinutes: fc.constantFrom(30, 45, 60, 90, 120),
          lessonType: fc.option(fc.constantFrom(...LESSON_TYPES), { nil: undefined }),
          utcOffsetMinutes: fc.integer({ min: -720, max: 840 }),
        }),
      })
    })

/** A slot of an availability response as instants, read back from its client date and times. */
export type SlotInstant = { date: string; start: number; end: number; startLabel: string; endLabel: string }

const wallMinutes = (label: string): number => Number(label.slice(0, 2)) * 60 + Number(label.slice(3, 5))

export const slotInstants = (response: Availability, utcOffsetMinutes: number, durationMinutes: number): SlotInstant[] =>
  response.availabilities.flatMap((day) =>
    day.times.map((time) => {
      const start = dayNumberOf(day.date) * DAY + (wallMinutes(time.start) - utcOffsetMinutes) * MINUTE
      return { date: day.date, start, end: start + durationMinutes * MINUTE, startLabel: time.start, endLabel: time.end }
    }),
  )

/** Dates from `date` for `count` days, for tests that walk a calendar. */
export const datesFrom = (date: string, count: number): string[] =>
  Array.from({ length: count }, (_, i) => isoDateOfMs(Date.parse(date) + i * DAY))
