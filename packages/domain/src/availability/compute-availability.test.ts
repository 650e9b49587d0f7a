import { describe, expect, it } from 'vitest'
import { computeAvailability, type AvailabilityInput } from './compute-availability'
import { DAY_NAMES, type WeeklyEntry } from '../schedule'

const everyDay = (windows: WeeklyEntry['slots'], extra: Partial<WeeklyEntry> = {}): WeeklyEntry[] =>
  DAY_NAMES.map((day) => ({ day, slots: windows, lessonTypes: ['online', 'tutors_home', 'students_home'], bufferMinutes: 0, ...extra }))

const nineToFive = everyDay([{ from: '09:00', to: '17:00' }])
const winterNow = new Date('2026-01-05T06:00:00Z') // a Monday, before opening time
const at = (iso: string) => new Date(iso)

const day = (input: Partial<AvailabilityInput> & { request: AvailabilityInput['request'] }) => {
  const { availabilities } = computeAvailability({ schedule: nineToFive, now: winterNow, ...input })
  expect(availabilities).toHaveLength(1)
  const [only] = availabilities
  if (!only) throw new Error('no day')
  return only
}
const starts = (input: Parameters<typeof day>[0]) => day(input).times.map((t) => t.start)

describe('availability slots', () => {
  it('starts from the schedule of the requested weekday on a 15-minute grid, wholly inside the window', () => {
    const d = day({ request: { date: '2026-01-06', durationMinutes: 60 } })
    expect(d.date).toBe('2026-01-06')
    expect(d.times[0]).toEqual({ start: '09:00', end: '10:00' })
    expect(d.times.at(-1)).toEqual({ start: '16:00', end: '17:00' })
    expect(d.times).toHaveLength(29)
  })

  it('answers the lesson types of the day', () => {
    const d = day({ request: { date: '2026-01-06' }, withinTravelDistance: true })
    expect(d.lessonTypes).toEqual(['tutors_home', 'students_home', 'online'])
  })

  it('keeps the grid of a window that starts off the quarter hour', () => {
    const schedule = everyDay([{ from: '09:10', to: '11:00' }])
    expect(starts({ schedule, request: { date: '2026-01-06', durationMinutes: 60 } })).toEqual(['09:10', '09:25', '09:40', '09:55'])
  })

  it('offers nothing on a weekday without schedule', () => {
    const schedule = nineToFive.filter((e) => e.day !== 'TUESDAY')
    const d = day({ schedule, request: { date: '2026-01-06' } })
    expect(d.times).toEqual([])
    expect(d.lessonTypes).toEqual([])
  })

  it('removes slots that clash with a lesson, keeping those that touch it', () => {
    const lessons = [{ start: at('2026-01-06T10:00:00Z'), finish: at('2026-01-06T11:00:00Z'), inPerson: false }]
    const result = starts({ lessons, request: { date: '2026-01-06', durationMinutes: 60 } })
    expect(result).toContain('09:00')
    expect(result).not.toContain('09:15')
    expect(result).not.toContain('10:45')
    expect(result).toContain('11:00')
  })

  it("widens lessons by the entry's buffer on both sides", () => {
    const schedule = everyDay([{ from: '09:00', to: '17:00' }], { bufferMinutes: 30 })
    const lessons = [{ start: at('2026-01-06T12:00:00Z'), finish: at('2026-01-06T13:00:00Z'), inPerson: false }]
    const result = starts({ schedule, lessons, request: { date: '2026-01-06', durationMinutes: 60 } })
    expect(result).toContain('10:30')
    expect(result).not.toContain('10:45')
    expect(result).not.toContain('13:15')
    expect(result).toContain('13:30')
  })

  it('adds travel time around in-person lessons for an in-person request only', () => {
    const lessons = [
      { start: at('2026-01-06T12:00:00Z'), finish: at('2026-01-06T13:00:00Z'), inPerson: true, travelBeforeMinutes: 30, travelAfterMinutes: 45 },
    ]
    const inPerson = starts({ lessons, request: { date: '2026-01-06', durationMinutes: 60, lessonType: 'tutors_home' } })
    expect(inPerson).toContain('10:30')
    expect(inPerson).not.toContain('10:45')
    expect(inPerson).not.toContain('13:30')
    expect(inPerson).toContain('13:45')
    const online = starts({ lessons, request: { date: '2026-01-06', durationMinutes: 60, lessonType: 'online' } })
    expect(online).toContain('11:00')
    expect(online).toContain('13:00')
  })

  it('ignores the travel time of an online lesson', () => {
    const lessons = [
      { start: at('2026-01-06T12:00:00Z'), finish: at('2026-01-06T13:00:00Z'), inPerson: false, travelBeforeMinutes: 30, travelAfterMinutes: 30 },
    ]
    expect(starts({ lessons, request: { date: '2026-01-06', durationMinutes: 60, lessonType: 'tutors_home' } })).toContain('13:00')
  })

  it('removes slots that clash with external calendar events, without a buffer', () => {
    const schedule = everyDay([{ from: '09:00', to: '17:00' }], { bufferMinutes: 30 })
    const busy = [{ start: at('2026-01-06T12:00:00Z'), end: at('2026-01-06T12:30:00Z') }]
    const result = starts({ schedule, busy, request: { date: '2026-01-06', durationMinutes: 60 } })
    expect(result).toContain('11:00')
    expect(result).not.toContain('11:15')
    expect(result).toContain('12:30')
  })

  it('offers only future slots', () => {
    const now = at('2026-01-06T10:07:00Z')
    expect(starts({ now, request: { date: '2026-01-06', durationMinutes: 60 } })[0]).toBe('10:15')
    const onTheDot = at('2026-01-06T10:15:00Z')
    expect(starts({ now: onTheDot, request: { date: '2026-01-06', durationMinutes: 60 } })[0]).toBe('10:30')
  })

  it('offers nothing on a holiday, first and last days included', () => {
    const holidays = [{ startDate: '2026-01-06', endDate: '2026-01-07' }]
    expect(starts({ holidays, request: { date: '2026-01-06' } })).toEqual([])
    expect(starts({ holidays, request: { date: '2026-01-07' } })).toEqual([])
    expect(starts({ holidays, request: { date: '2026-01-08' } })).not.toEqual([])
  })

  it('offers nothing outside the 14-day window, today in London to today + 14', () => {
    expect(starts({ request: { date: '2026-01-19' } })).not.toEqual([])
    expect(starts({ request: { date: '2026-01-20' } })).toEqual([])
    expect(starts({ request: { date: '2026-01-04' } })).toEqual([])
  })

  it("offers students_home only within the tutor's travel distance", () => {
    const schedule = everyDay([{ from: '09:00', to: '17:00' }], { lessonTypes: ['students_home'] })
    const outside = day({ schedule, withinTravelDistance: false, request: { date: '2026-01-06', lessonType: 'students_home' } })
    expect(outside.times).toEqual([])
    expect(outside.lessonTypes).toEqual([])
    const unknown = day({ schedule, request: { date: '2026-01-06', lessonType: 'students_home' } })
    expect(unknown.times).toEqual([])
    const inside = day({ schedule, withinTravelDistance: true, request: { date: '2026-01-06', lessonType: 'students_home' } })
    expect(inside.times).not.toEqual([])
    expect(inside.lessonTypes).toEqual(['students_home'])
  })

  it('takes slots only from entries offering the requested lesson type, listing every type of the day', () => {
    const schedule: WeeklyEntry[] = [
      { day: 'TUESDAY', slots: [{ from: '09:00', to: '10:00' }], lessonTypes: ['online'], bufferMinutes: 0 },
      { day: 'TUESDAY', slots: [{ from: '14:00', to: '15:00' }], lessonTypes: ['tutors_home'], bufferMinutes: 0 },
    ]
    const d = day({ schedule, request: { date: '2026-01-06', lessonType: 'tutors_home', durationMinutes: 60 } })
    expect(d.times).toEqual([{ start: '14:00', end: '15:00' }])
    expect(d.lessonTypes).toEqual(['tutors_home', 'online'])
  })

  it("honours an entry's subject, level and exam board filters", () => {
    const schedule: WeeklyEntry[] = [
      { day: 'TUESDAY', slots: [{ from: '09:00', to: '10:00' }], lessonTypes: ['online'], bufferMinutes: 0, subjectId: 1 },
      { day: 'TUESDAY', slots: [{ from: '11:00', to: '12:00' }], lessonTypes: ['online'], bufferMinutes: 0, subjectId: 2, subjectLevelId: 7 },
    ]
    expect(starts({ schedule, request: { date: '2026-01-06', subjectId: 1 } })).toEqual(['09:00'])
    expect(starts({ schedule, request: { date: '2026-01-06', subjectId: 2, subjectLevelId: 8 } })).toEqual([])
    expect(starts({ schedule, request: { date: '2026-01-06', subjectId: 2 } })).toEqual(['11:00'])
  })

  it('merges overlapping entries into sorted, distinct times', () => {
    const schedule: WeeklyEntry[] = [
      { day: 'TUESDAY', slots: [{ from: '10:00', to: '11:30' }], lessonTypes: ['online'], bufferMinutes: 0 },
      { day: 'TUESDAY', slots: [{ from: '09:00', to: '11:00' }], lessonTypes: ['online'], bufferMinutes: 0, subjectId: 3 },
    ]
    expect(starts({ schedule, request: { date: '2026-01-06' } })).toEqual(['09:00', '09:15', '09:30', '09:45', '10:00', '10:15', '10:30'])
  })

  it('uses each entry its own buffer', () => {
    const schedule: WeeklyEntry[] = [
      { day: 'TUESDAY', slots: [{ from: '09:00', to: '12:00' }], lessonTypes: ['online'], bufferMinutes: 0 },
      { day: 'TUESDAY', slots: [{ from: '13:00', to: '16:00' }], lessonTypes: ['tutors_home'], bufferMinutes: 60 },
    ]
    const lessons = [{ start: at('2026-01-06T12:00:00Z'), finish: at('2026-01-06T13:00:00Z'), inPerson: false }]
    expect(starts({ schedule, lessons, request: { date: '2026-01-06' } })).toEqual([
      '09:00', '09:15', '09:30', '09:45', '10:00', '10:15', '10:30', '10:45', '11:00', '14:00', '14:15', '14:30', '14:45', '15:00',
    ])
  })
})

describe('availability across time zones and offsets', () => {
  it('keeps a 09:00-17:00 schedule at 09:00-17:00 London time on both sides of the spring change', () => {
    const now = at('2026-03-25T06:00:00Z')
    const before = starts({ now, request: { date: '2026-03-28', utcOffsetMinutes: 0 } })
    const after = starts({ now, request: { date: '2026-03-29', utcOffsetMinutes: 60 } })
    expect(before[0]).toBe('09:00')
    expect(after[0]).toBe('09:00')
    expect(after.at(-1)).toBe('16:00')
    expect(starts({ now, request: { date: '2026-03-29', utcOffsetMinutes: 0 } })[0]).toBe('08:00')
  })

  it('keeps it so on both sides of the autumn change', () => {
    const now = at('2026-10-20T06:00:00Z')
    expect(starts({ now, request: { date: '2026-10-24', utcOffsetMinutes: 60 } })[0]).toBe('09:00')
    expect(starts({ now, request: { date: '2026-10-25', utcOffsetMinutes: 0 } })[0]).toBe('09:00')
    expect(starts({ now, request: { date: '2026-10-24', utcOffsetMinutes: 0 } })[0]).toBe('08:00')
  })

  it('shrinks a window over the spring-forward gap to the real time it spans', () => {
    const schedule = everyDay([{ from: '00:00', to: '03:00' }])
    const now = at('2026-03-25T06:00:00Z')
    // 00:00 GMT to 03:00 BST is two real hours: 00:00Z..02:00Z. Monday's window, 00:00-03:00
    // BST, starts at 23:00Z on the Sunday, so a UTC client sees its first hour on the 29th too.
    expect(starts({ schedule, now, request: { date: '2026-03-29', durationMinutes: 60, utcOffsetMinutes: 0 } })).toEqual([
      '00:00', '00:15', '00:30', '00:45', '01:00', '23:00', '23:15', '23:30', '23:45',
    ])
  })

  it('shows dates and times in the client offset, a client day drawing on two tutor days', () => {
    // Tokyo (+540) on Wednesday 7 January sees London's Tuesday 6 afternoon and Wednesday morning.
    const d = day({ request: { date: '2026-01-07', durationMinutes: 60, utcOffsetMinutes: 540 } })
    expect(d.times[0]).toEqual({ start: '00:00', end: '01:00' })
    expect(d.times.at(-1)).toEqual({ start: '23:45', end: '00:45' })
    expect(d.times.map((t) => t.start)).toContain('18:00')
    expect(d.times.map((t) => t.start)).not.toContain('02:15')
  })

  it('lists a slot crossing the client midnight under the date it starts', () => {
    const d = day({ request: { date: '2026-01-06', durationMinutes: 60, utcOffsetMinutes: -450 } })
    expect(d.times.at(-1)).toEqual({ start: '08:30', end: '09:30' })
    expect(d.times[0]).toEqual({ start: '01:30', end: '02:30' })
  })

  it("reads the schedule in the tutor's own time zone", () => {
    const d = day({ timeZone: 'America/New_York', request: { date: '2026-01-06', durationMinutes: 60, utcOffsetMinutes: -300 } })
    expect(d.times[0]?.start).toBe('09:00')
    expect(d.times.at(-1)?.start).toBe('16:00')
  })

  it('lists every client date of the 14-day window when no date is asked', () => {
    const london = computeAvailability({ schedule: nineToFive, now: winterNow, request: {} }).availabilities
    expect(london.map((d) => d.date)).toEqual(Array.from({ length: 15 }, (_, i) => `2026-01-${String(5 + i).padStart(2, '0')}`))
    const tokyo = computeAvailability({ schedule: nineToFive, now: winterNow, request: { utcOffsetMinutes: 540 } }).availabilities
    // 06:00 in London is 15:00 in Tokyo on the 5th; the window ends at 09:00 Tokyo on the 20th.
    expect(tokyo[0]?.date).toBe('2026-01-05')
    expect(tokyo.at(-1)?.date).toBe('2026-01-20')
    expect(tokyo.at(-1)?.times.at(-1)?.start).toBe('01:00')
  })
})
