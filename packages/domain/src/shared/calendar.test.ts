import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { addDays, dayNumberOf, isoDateOf, parseIsoDate, weekdayIndexOf } from './calendar'

describe('calendar dates', () => {
  it('round-trips every date between 1900 and 2100', () => {
    fc.assert(
      fc.property(fc.integer({ min: -25_567, max: 47_482 }), (day) => dayNumberOf(isoDateOf(day)) === day),
      { numRuns: 1000 },
    )
  })
  it('refuses dates that do not exist', () => {
    expect(parseIsoDate('2026-02-29')).toBeUndefined()
    expect(parseIsoDate('2026-13-01')).toBeUndefined()
    expect(parseIsoDate('26-01-01')).toBeUndefined()
    expect(parseIsoDate('2028-02-29')).toBeDefined()
  })
  it('knows the weekday: 2026-03-29 is a Sunday and 2026-10-24 a Saturday', () => {
    expect(weekdayIndexOf(dayNumberOf('2026-03-29'))).toBe(0)
    expect(weekdayIndexOf(dayNumberOf('2026-10-24'))).toBe(6)
    expect(weekdayIndexOf(dayNumberOf('1969-12-31'))).toBe(3)
  })
  it('adds days across month and year ends', () => {
    expect(addDays('2026-12-25', 14)).toBe('2027-01-08')
  })
})
