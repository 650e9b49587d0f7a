import { describe, expect, it } from 'vitest'
import { validateAvailabilityRequest } from './request'

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
