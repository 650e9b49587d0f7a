import { describe, expect, it } from 'vitest'
import { dueReminderOffset, leadTime, wallClockIn } from './reminders'

const MINUTE = 60_000
const start = new Date('2026-12-01T10:00:00Z')
const before = (minutes: number) => new Date(start.getTime() - minutes * MINUTE)
const lesson = (committedAt: Date, sentOffsets: number[] = []) => ({ start, committedAt, sentOffsets })
const OFFSETS = [1440, 60]

describe('dueReminderOffset', () => {
  it('is due at each offset, not before', () => {
    const committed = before(3 * 1440)
    expect(dueReminderOffset(lesson(committed), OFFSETS, before(1441))).toBeNull()
    expect(dueReminderOffset(lesson(committed), OFFSETS, before(1440))).toBe(1440)
    expect(dueReminderOffset(lesson(committed, [1440]), OFFSETS, before(61))).toBeNull()
    expect(dueReminderOffset(lesson(committed, [1440]), OFFSETS, before(60))).toBe(60)
    expect(dueReminderOffset(lesson(committed, [1440, 60]), OFFSETS, before(1))).toBeNull()
  })

  it('sends only the offset nearest the start when a run comes late', () => {
    expect(dueReminderOffset(lesson(before(3 * 1440)), OFFSETS, before(30))).toBe(60)
  })

  it('skips an offset already past when the lesson was committed, and says nothing once it started', () => {
    expect(dueReminderOffset(lesson(before(120)), OFFSETS, before(119))).toBeNull()
    expect(dueReminderOffset(lesson(before(120)), OFFSETS, before(60))).toBe(60)
    expect(dueReminderOffset(lesson(before(30)), OFFSETS, before(29))).toBeNull()
    expect(dueReminderOffset(lesson(before(3 * 1440)), OFFSETS, start)).toBeNull()
  })
})

describe('how a reminder reads', () => {
  it('gives the start in the recipient zone and the lead time in words', () => {
    expect(wallClockIn(start, 'Europe/London')).toMatch(/Tuesday,? 1 December 2026,? (at )?10:00/)
    expect(wallClockIn(start, 'America/New_York')).toMatch(/Tuesday,? 1 December 2026,? (at )?05:00/)
    expect([leadTime(1440), leadTime(60), leadTime(90)]).toEqual(['in 24 hours', 'in 1 hour', 'in 90 minutes'])
  })
})
