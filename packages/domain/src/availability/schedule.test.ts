import { describe, expect, it } from 'vitest'
import { validateHoliday, validateScheduleEntry, type ScheduleEntry } from './schedule'
import { formatWallTime, parseWallTime } from './wall-time'
import { validateAvailabilityRequest } from './request'

const entry: ScheduleEntry = { day: 'MONDAY', windows: [{ from: '09:00', to: '12:00' }], lessonTypes: ['online'], bufferMinutes: 15 }

describe('schedule entries', () => {
  it('accept well-formed windows, up to 24:00', () => {
    expect(validateScheduleEntry({ ...entry, windows: [{ from: '00:00', to: '24:00' }] }).isOk()).toBe(true)
  })

  it('refuse windows that end before they start, overlap, or are not HH:MM', () => {
    const bad = (windows: ScheduleEntry['windows']) => validateScheduleEntry({ ...entry, windows })._unsafeUnwrapErr().errors.slots
    expect(bad([{ from: '12:00', to: '09:00' }])).toEqual(['each window ends after it starts'])
    expect(bad([{ from: '09:00', to: '12:00' }, { from: '11:00', to: '13:00' }])).toEqual(['windows of one day may not overlap'])
    expect(bad([{ from: '9:00', to: '12:00' }])).toEqual(['times are HH:MM, 00:00 to 24:00'])
    expect(bad([])).toEqual(['needs at least one window'])
  })

  it('refuse no lesson type, repeated lesson types, and buffers out of range', () => {
    expect(validateScheduleEntry({ ...entry, lessonTypes: [] })._unsafeUnwrapErr().errors.lesson_types).toBeDefined()
    expect(validateScheduleEntry({ ...entry, lessonTypes: ['online', 'online'] })._unsafeUnwrapErr().errors.lesson_types).toBeDefined()
    expect(validateScheduleEntry({ ...entry, bufferMinutes: -5 })._unsafeUnwrapErr().errors.buffer_minutes).toBeDefined()
    expect(validateScheduleEntry({ ...entry, bufferMinutes: 241 })._unsafeUnwrapErr().errors.buffer_minutes).toBeDefined()
  })

  it('read and write wall times', () => {
    expect(parseWallTime('24:00')).toBe(1440)
    expect(parseWallTime('24:01')).toBeUndefined()
    expect(parseWallTime('12:60')).toBeUndefined()
    expect(formatWallTime(1440 + 75)).toBe('01:15')
    expect(formatWallTime(-15)).toBe('23:45')
  })

  it('take holidays whose end is not before their start', () => {
    expect(validateHoliday({ startDate: '2026-08-01', endDate: '2026-08-01' }).isOk()).toBe(true)
    expect(validateHoliday({ startDate: '2026-08-02', endDate: '2026-08-01' }).isErr()).toBe(true)
  })
})

describe('availability requests', () => {
  it('accept durations 30 to 120 and offsets -720 to 840', () => {
    expect(validateAvailabilityRequest({ durationMinutes: 30, utcOffsetMinutes: -720, date: '2026-01-01' }).isOk()).toBe(true)
    expect(validateAvailabilityRequest({ durationMinutes: 120, utcOffsetMinutes: 840 }).isOk()).toBe(true)
  })

  it('refuse anything else, naming the wire fields', () => {
    const errors = validateAvailabilityRequest({ durationMinutes: 20, utcOffsetMinutes: 900, date: '2026-02-30' })._unsafeUnwrapErr().errors
    expect(Object.keys(errors).sort()).toEqual(['date', 'duration', 'utc_offset'])
  })
})
