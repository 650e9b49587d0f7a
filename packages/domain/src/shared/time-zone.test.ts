import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { fromZonedTime } from 'date-fns-tz'
import {
  LONDON,
  instantOfWall,
  isValidTimeZone,
  londonToday,
  offsetAt,
  offsetTimeline,
  zoneOffsetMs,
} from './time-zone'
import { DAY_MS } from './calendar'

/**
 * The oracle reads Intl's "GMT+10:30" offset name, a different path from the code under test.
 * date-fns-tz's getTimezoneOffset is no oracle: it answers +11:00 for an hour after Lord Howe
 * falls back to +10:30.
 */
const offsetNameMs = (zone: string, instant: number): number => {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).format(instant)
  const match = /GMT(?:([+-])(\d{2}):(\d{2}))?/.exec(name)
  if (!match || !match[1]) return 0
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) * 60_000
}

const ZONES = [LONDON, 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Pacific/Chatham', 'UTC']
const Y2026 = Date.UTC(2026, 0, 1)
const Y2028 = Date.UTC(2028, 0, 1)

describe('zone offsets', () => {
  it("agree with Intl's offset names at any instant of 2026-2027, in zones with odd offsets and half-hour DST", () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.integer({ min: Y2026, max: Y2028 }), (zone, t) => {
        expect(zoneOffsetMs(zone, t)).toBe(offsetNameMs(zone, Math.floor(t / 60_000) * 60_000))
      }),
      { numRuns: 1000 },
    )
  })

  it('finds the exact minute of London clock changes in a timeline', () => {
    const timeline = offsetTimeline(LONDON, Date.UTC(2026, 2, 20), Date.UTC(2026, 10, 1))
    expect(timeline.starts.slice(1)).toEqual([Date.UTC(2026, 2, 29, 1), Date.UTC(2026, 9, 25, 1)])
    expect(timeline.offsets).toEqual([0, 3_600_000, 0])
  })

  it('answers like a direct lookup anywhere inside a timeline', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: Y2026, max: Y2028 - 40 * DAY_MS }),
        fc.integer({ min: 0, max: 40 * DAY_MS }),
        (zone, from, within) => {
          const timeline = offsetTimeline(zone, from, from + 40 * DAY_MS)
          expect(offsetAt(timeline, from + within)).toBe(zoneOffsetMs(zone, from + within))
        },
      ),
      { numRuns: 300 },
    )
  })

  it('turns wall-clock times into instants like date-fns-tz away from clock changes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: Y2026 / 60_000 + 1440, max: Y2028 / 60_000 - 1440 }),
        (zone, wallMinute) => {
          const wall = wallMinute * 60_000
          const timeline = offsetTimeline(zone, wall - DAY_MS, wall + DAY_MS)
          const instant = instantOfWall(timeline, wall)
          const isoWall = new Date(wall).toISOString().slice(0, 16)
          // date-fns-tz resolves gaps and overlaps its own way; compare where the offset is steady.
          const steady = offsetAt(timeline, wall - 15 * 3_600_000) === offsetAt(timeline, wall + 13 * 3_600_000)
          if (steady) {
            expect(instant).toBe(fromZonedTime(isoWall, zone).getTime())
          }
        },
      ),
      { numRuns: 300 },
    )
  })

  it('moves a wall time skipped by the spring-forward change forward by the gap', () => {
    const timeline = offsetTimeline(LONDON, Date.UTC(2026, 2, 27), Date.UTC(2026, 3, 1))
    expect(new Date(instantOfWall(timeline, Date.UTC(2026, 2, 29, 1, 30))).toISOString()).toBe(
      '2026-03-29T01:30:00.000Z',
    )
  })

  it('takes the earlier of the two instants of a wall time repeated by the autumn change', () => {
    const timeline = offsetTimeline(LONDON, Date.UTC(2026, 9, 23), Date.UTC(2026, 9, 28))
    expect(new Date(instantOfWall(timeline, Date.UTC(2026, 9, 25, 1, 30))).toISOString()).toBe(
      '2026-10-25T00:30:00.000Z',
    )
  })

  it("takes today's date in London whatever the process time zone", () => {
    expect(londonToday(new Date('2026-06-30T23:30:00Z'))).toBe('2026-07-01')
    expect(londonToday(new Date('2026-12-31T23:30:00Z'))).toBe('2026-12-31')
  })

  it("answers London's date for any sequence of instants, the last millisecond before midnight and the first after included", () => {
    // Intl's en-CA date is YYYY-MM-DD.
    const londonDateOracle = new Intl.DateTimeFormat('en-CA', { timeZone: LONDON })
    // London midnights in summer (23:00Z) and winter (00:00Z), each side of them, asked in any order.
    const edges = [Date.UTC(2026, 5, 30, 23, 0), Date.UTC(2026, 11, 31, 0, 0)].flatMap((midnight) => [midnight - 60_001, midnight - 1, midnight, midnight + 59_999])
    const instant = fc.oneof(fc.constantFrom(...edges), fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2090, 0, 1) }))
    fc.assert(
      fc.property(fc.array(instant, { minLength: 1, maxLength: 20 }), (instants) => {
        for (const at of instants) expect(londonToday(new Date(at))).toBe(londonDateOracle.format(at))
      }),
    )
  })

  it('tells real zone names from others', () => {
    expect(isValidTimeZone('Europe/London')).toBe(true)
    expect(isValidTimeZone('Mars/Olympus')).toBe(false)
  })
})
