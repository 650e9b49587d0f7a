import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { formatInTimeZone, fromZonedTime } from 'date-fns-tz'
import { weeklyTimes, MAX_SERIES_WEEKS } from './weekly-times'

const ZONES = ['Europe/London', 'Europe/Berlin', 'America/New_York', 'Australia/Sydney'] as const
const HOUR = 3_600_000

// Wall times at which no zone above changes its clocks (they change between 00:00 and 03:00),
// so every week's wall time exists exactly once.
const wallTime = fc.record({ hour: fc.integer({ min: 6, max: 22 }), quarter: fc.integer({ min: 0, max: 3 }) })

describe('weekly series times', () => {
  it("keep the first lesson's wall-clock time and weekday in the tutor's zone every week, across both clock changes of the year", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        // Any day of 2027: a twelve-week series from each of them spans a spring or an autumn change, or none.
        fc.integer({ min: 0, max: 364 }),
        wallTime,
        fc.integer({ min: 2, max: MAX_SERIES_WEEKS }),
        fc.constantFrom(30, 45, 60, 90, 120),
        (zone, dayOfYear, { hour, quarter }, weeks, minutes) => {
          const date = new Date(Date.UTC(2027, 0, 1 + dayOfYear)).toISOString().slice(0, 10)
          const start = fromZonedTime(`${date}T${String(hour).padStart(2, '0')}:${String(quarter * 15).padStart(2, '0')}:00`, zone)
          const times = weeklyTimes({ start, finish: new Date(start.getTime() + minutes * 60_000) }, weeks, zone)
          expect(times).toHaveLength(weeks)
          const wall = (d: Date) => formatInTimeZone(d, zone, 'EEEE HH:mm')
          times.forEach(({ start: s, finish: f }, week) => {
            expect(wall(s)).toBe(wall(start))
            // Seven calendar days a week, whatever the hours between them.
            expect(formatInTimeZone(s, zone, 'yyyy-MM-dd')).toBe(new Date(Date.UTC(2027, 0, 1 + dayOfYear + 7 * week)).toISOString().slice(0, 10))
            expect(f.getTime() - s.getTime()).toBe(minutes * 60_000)
          })
        },
      ),
      { numRuns: 300 },
    )
  })

  it('moves the instant by the hour, not the wall time, over London’s spring and autumn changes', () => {
    const spring = weeklyTimes({ start: new Date('2027-03-21T17:00:00Z'), finish: new Date('2027-03-21T18:00:00Z') }, 2, 'Europe/London')
    expect(spring.map((w) => w.start.toISOString())).toEqual(['2027-03-21T17:00:00.000Z', '2027-03-28T16:00:00.000Z'])
    const autumn = weeklyTimes({ start: new Date('2027-10-24T16:00:00Z'), finish: new Date('2027-10-24T17:00:00Z') }, 2, 'Europe/London')
    expect(autumn.map((w) => w.start.toISOString())).toEqual(['2027-10-24T16:00:00.000Z', '2027-10-31T17:00:00.000Z'])
    expect(autumn[1]!.start.getTime() - autumn[0]!.start.getTime()).toBe(7 * 24 * HOUR + HOUR)
  })
})
