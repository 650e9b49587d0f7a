/**
 * The properties of issue 3 for availability, each over 1,000 random questions. Window
 * instants come from date-fns-tz, not from the offset timeline under test, so the two
 * implementations check each other.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { formatInTimeZone, fromZonedTime } from 'date-fns-tz'
import { arbAvailabilityScenario, arbDayWindows, slotInstants, type AvailabilityScenario } from '@tutoring/testkit'
import { computeAvailability } from './compute-availability'
import { DAY_NAMES, formatTimeOfDay, type WeeklyEntry } from '../schedule'

const MINUTE = 60_000
const DAY = 86_400_000
const STEP = 15 * MINUTE
const RUNS = { numRuns: 1000 }
const LONDON = 'Europe/London'

const isoDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10)
const wallMinutes = (label: string): number => Number(label.slice(0, 2)) * 60 + Number(label.slice(3, 5))

/** Instants of wall-clock times by date-fns-tz, memoised for one scenario. */
const wallClock = (zone: string) => {
  const cache = new Map<string, number>()
  return (date: string, time: string): number => {
    const key = `${date}T${time}`
    let instant = cache.get(key)
    if (instant === undefined) {
      instant = fromZonedTime(`${key}:00`, zone).getTime()
      cache.set(key, instant)
    }
    return instant
  }
}

type Interval = [number, number]

const blocked = (s: AvailabilityScenario, bufferMinutes: number): Interval[] => {
  const inPersonRequest = s.request.lessonType !== undefined && s.request.lessonType !== 'online'
  const buffer = bufferMinutes * MINUTE
  const lessons = (s.lessons ?? []).map((l): Interval => {
    const travel = inPersonRequest && l.inPerson
    return [
      l.start.getTime() - buffer - (travel ? (l.travelBeforeMinutes ?? 0) * MINUTE : 0),
      l.finish.getTime() + buffer + (travel ? (l.travelAfterMinutes ?? 0) * MINUTE : 0),
    ]
  })
  return [...lessons, ...(s.busy ?? []).map((b): Interval => [b.start.getTime(), b.end.getTime()])]
}

const overlaps = (start: number, end: number, intervals: Interval[]): boolean =>
  intervals.some(([from, to]) => start < to && from < end)

/** The London 14-day window and the client's range of instants, by date-fns-tz. */
const frame = (s: AvailabilityScenario) => {
  const today = formatInTimeZone(s.now, LONDON, 'yyyy-MM-dd')
  const windowStart = fromZonedTime(`${today}T00:00:00`, LONDON).getTime()
  const windowEnd = fromZonedTime(`${isoDate(Date.parse(today) + 15 * DAY)}T00:00:00`, LONDON).getTime()
  const offset = s.request.utcOffsetMinutes * MINUTE
  const firstDay = s.request.date ?? isoDate(s.now.getTime() + offset)
  const lastDay = s.request.date ?? isoDate(windowEnd - 1 + offset)
  return { windowStart, windowEnd, rangeStart: Date.parse(firstDay) - offset, rangeEnd: Date.parse(lastDay) + DAY - offset }
}

type LocalWindow = { entry: WeeklyEntry; start: number; end: number; date: string }

/** Every schedule window of the tutor's days around the range, as instants. */
const localWindows = (s: AvailabilityScenario, from: number, to: number): LocalWindow[] => {
  const at = wallClock(s.timeZone ?? LONDON)
  const windows: LocalWindow[] = []
  for (let day = Math.floor(from / DAY) - 2; day <= Math.floor(to / DAY) + 1; day++) {
    const date = isoDate(day * DAY)
    const weekday = DAY_NAMES[new Date(day * DAY).getUTCDay()]
    if ((s.holidays ?? []).some((h) => h.startDate <= date && date <= h.endDate)) continue
    for (const entry of s.schedule.filter((e) => e.day === weekday)) {
      for (const w of entry.slots) windows.push({ entry, date, start: at(date, w.from), end: at(date, w.to) })
    }
  }
  return windows
}

const makesSlots = (s: AvailabilityScenario, entry: WeeklyEntry): boolean => {
  const offered = entry.lessonTypes.filter((t) => t !== 'students_home' || s.withinTravelDistance === true)
  return offered.length > 0 && (s.request.lessonType === undefined || offered.includes(s.request.lessonType))
}

/** Brute force: every grid point of every window, kept when it passes every rule. */
const referenceStarts = (s: AvailabilityScenario): number[] => {
  const f = frame(s)
  const duration = s.request.durationMinutes * MINUTE
  const starts = new Set<number>()
  for (const w of localWindows(s, f.rangeStart, f.rangeEnd)) {
    if (!makesSlots(s, w.entry)) continue
    const busy = blocked(s, w.entry.bufferMinutes)
    for (let start = w.start; start + duration <= w.end; start += STEP) {
      const inside = start > s.now.getTime() && start >= f.windowStart && start < f.windowEnd
      if (inside && start >= f.rangeStart && start < f.rangeEnd && !overlaps(start, start + duration, busy)) starts.add(start)
    }
  }
  return [...starts].sort((a, b) => a - b)
}

const slotsOf = (s: AvailabilityScenario) =>
  slotInstants(computeAvailability(s), s.request.utcOffsetMinutes, s.request.durationMinutes)

describe('availability properties', () => {
  it('offers exactly the slots a brute-force reading of the rules finds', () => {
    fc.assert(
      fc.property(arbAvailabilityScenario(), (s) => {
        expect(slotsOf(s).map((slot) => slot.start)).toEqual(referenceStarts(s))
      }),
      RUNS,
    )
  })

  it('never offers a slot overlapping a lesson widened by buffer and travel time, or a calendar event', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(0, 15, 30).chain((bufferMinutes) =>
          arbAvailabilityScenario({ bufferMinutes }).map((s) => ({ s, bufferMinutes })),
        ),
        ({ s, bufferMinutes }) => {
          const busy = blocked(s, bufferMinutes)
          for (const slot of slotsOf(s)) expect(overlaps(slot.start, slot.end, busy)).toBe(false)
        },
      ),
      RUNS,
    )
  })

  it('puts every slot inside one schedule window, on its 15-minute grid, of the requested duration', () => {
    fc.assert(
      fc.property(arbAvailabilityScenario(), (s) => {
        const f = frame(s)
        const windows = localWindows(s, f.rangeStart, f.rangeEnd).filter((w) => makesSlots(s, w.entry))
        for (const slot of slotsOf(s)) {
          const home = windows.find((w) => w.start <= slot.start && slot.end <= w.end && (slot.start - w.start) % STEP === 0)
          expect(home).toBeDefined()
          expect((wallMinutes(slot.endLabel) - wallMinutes(slot.startLabel) + 1440) % 1440).toBe(s.request.durationMinutes % 1440)
        }
      }),
      RUNS,
    )
  })

  it('offers only slots in the future and inside the London 14-day window', () => {
    fc.assert(
      fc.property(arbAvailabilityScenario({ dateShare: 0.5 }), (s) => {
        const f = frame(s)
        for (const slot of slotsOf(s)) {
          expect(slot.start).toBeGreaterThan(s.now.getTime())
          expect(slot.start).toBeGreaterThanOrEqual(f.windowStart)
          expect(slot.start).toBeLessThan(f.windowEnd)
        }
      }),
      RUNS,
    )
  })

  it('lists dates in order, each once, with sorted and distinct times', () => {
    fc.assert(
      fc.property(arbAvailabilityScenario({ dateShare: 0.5 }), (s) => {
        const response = computeAvailability(s)
        const dates = response.availabilities.map((d) => d.date)
        expect([...dates].sort()).toEqual(dates)
        expect(new Set(dates).size).toBe(dates.length)
        if (s.request.date) {
          expect(dates).toEqual([s.request.date])
        } else {
          // Every client date from the client's today to the date of the window's last instant:
          // 15 in London's offset, up to 17 elsewhere when the clocks change inside the window.
          const f = frame(s)
          const offset = s.request.utcOffsetMinutes * MINUTE
          expect(dates[0]).toBe(isoDate(s.now.getTime() + offset))
          expect(dates.at(-1)).toBe(isoDate(f.windowEnd - 1 + offset))
          dates.forEach((date, i) => i > 0 && expect(Date.parse(date) - Date.parse(dates[i - 1] ?? '')).toBe(DAY))
        }
        const starts = slotsOf(s).map((slot) => slot.start)
        starts.forEach((start, i) => i > 0 && expect(start).toBeGreaterThan(starts[i - 1] ?? 0))
      }),
      RUNS,
    )
  })

  it('shifts every time by a change of utc_offset and changes nothing else', () => {
    fc.assert(
      fc.property(
        arbAvailabilityScenario({ dateShare: 0 }),
        fc.integer({ min: -720, max: 840 }),
        (s, otherOffset) => {
          const moved = { ...s, request: { ...s.request, utcOffsetMinutes: otherOffset } }
          const here = slotsOf(s)
          const there = slotsOf(moved)
          expect(there.map((slot) => slot.start)).toEqual(here.map((slot) => slot.start))
          there.forEach((slot, i) => {
            const before = here[i]
            if (!before) throw new Error('slot lists differ in length')
            expect(wallMinutes(slot.startLabel)).toBe((wallMinutes(before.startLabel) + otherOffset - s.request.utcOffsetMinutes + 2880) % 1440)
            expect(slot.endLabel).toBe(formatTimeOfDay(wallMinutes(before.endLabel) + otherOffset - s.request.utcOffsetMinutes))
          })
        },
      ),
      RUNS,
    )
  })

  it("keeps the schedule's London wall-clock hours on random dates of 2026-2027, summer and winter", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2026, 0, 1) / DAY, max: Date.UTC(2027, 11, 31) / DAY }),
        fc.integer({ min: 1, max: 14 }),
        arbDayWindows(),
        fc.constantFrom(30, 45, 60, 90, 120),
        (day, daysAhead, windows, durationMinutes) => {
          const date = isoDate(day * DAY)
          const now = fromZonedTime(`${isoDate((day - daysAhead) * DAY)}T05:00:00`, LONDON)
          const londonOffset = Number(formatInTimeZone(new Date(`${date}T12:00:00Z`), LONDON, 'x')) * 60
          const schedule: WeeklyEntry[] = DAY_NAMES.map((weekday) => ({ day: weekday, slots: windows, lessonTypes: ['online'], bufferMinutes: 0 }))
          const response = computeAvailability({ schedule, now, request: { date, durationMinutes, utcOffsetMinutes: londonOffset } })
          const expected = windows.flatMap((w) => {
            const labels: string[] = []
            for (let m = wallMinutes(w.from); m + durationMinutes <= wallMinutes(w.to); m += 15) labels.push(formatTimeOfDay(m))
            return labels
          })
          // A client in London's offset at noon; on a clock-change date the late slots of the
          // day before may open that client's day, so judge every slot by London's own clock.
          const london = slotInstants(response, londonOffset, durationMinutes).map((slot) => ({
            date: formatInTimeZone(new Date(slot.start), LONDON, 'yyyy-MM-dd'),
            time: formatInTimeZone(new Date(slot.start), LONDON, 'HH:mm'),
          }))
          expect(london.filter((slot) => slot.date === date).map((slot) => slot.time)).toEqual(expected)
          for (const slot of london) expect(expected).toContain(slot.time)
        },
      ),
      RUNS,
    )
  })
})
