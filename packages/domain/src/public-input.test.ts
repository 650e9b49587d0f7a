import { describe, expect, it } from 'vitest'
import { computeAvailability, InvalidInput, lessonPriceBreakdown, searchEligibility, type AvailabilityInput } from '@tutoring/domain'

/** What a plain-JavaScript caller can pass that the types would have refused. */
const untyped = <T>(value: unknown): T => value as T

const now = new Date('2030-01-07T08:00:00Z')
const mondayNineToFive = { day: 'MONDAY', slots: [{ from: '09:00', to: '17:00' }], lessonTypes: ['online'], bufferMinutes: 0 } as const

describe("the root's pure functions, called with input their types forbid", () => {
  it('computeAvailability answers slots for a valid schedule', () => {
    const { availabilities } = computeAvailability({ schedule: [mondayNineToFive], now, request: { date: '2030-01-07' } })
    expect(availabilities[0]?.times.length).toBeGreaterThan(0)
  })

  it.each([
    ['a weekday in lower case', { day: 'monday' }, 'schedule'],
    ['an inverted window', { slots: [{ from: '17:00', to: '09:00' }] }, 'to'],
    ['a time that is not HH:MM', { slots: [{ from: '9am', to: '17:00' }] }, 'from'],
    ['an unknown lesson type', { lessonTypes: ['online', 'home'] }, 'lessonTypes'],
  ])('computeAvailability throws InvalidInput for %s, naming the field', (_, change, field) => {
    const input = untyped<AvailabilityInput>({ schedule: [{ ...mondayNineToFive, ...change }], now, request: {} })
    expect(() => computeAvailability(input)).toThrow(InvalidInput)
    expect(() => computeAvailability(input)).toThrow(field)
  })

  it('computeAvailability refuses a bad request, time zone or clock', () => {
    const base = { schedule: [mondayNineToFive], now, request: {} }
    expect(() => computeAvailability(untyped({ ...base, request: { date: '2030-02-30' } }))).toThrow(InvalidInput)
    expect(() => computeAvailability(untyped({ ...base, request: { durationMinutes: 7 } }))).toThrow(InvalidInput)
    expect(() => computeAvailability(untyped({ ...base, timeZone: 'Europe/Nowhere' }))).toThrow(InvalidInput)
    expect(() => computeAvailability(untyped({ ...base, now: '2030-01-07' }))).toThrow(InvalidInput)
  })

  it('searchEligibility refuses a snapshot without verifications and a query without today', () => {
    const tutor = {
      profile: { hasPicture: true, hasVideo: true, bio: 'Maths', hasAddress: true, hasMobile: true },
      verifications: { identity: 'PASS', dbs: 'PASS', qualification: 'PASS' },
      subscriptionStatus: 'active',
      isVisible: true,
      schedule: [mondayNineToFive],
      holidays: [],
      location: null,
    } as const
    expect(searchEligibility(tutor, { today: '2030-01-07' })).toEqual({ eligible: true })
    expect(() => searchEligibility(untyped({ ...tutor, verifications: {} }), { today: '2030-01-07' })).toThrow(InvalidInput)
    expect(() => searchEligibility(tutor, untyped({ date: '2030-01-07' }))).toThrow(InvalidInput)
  })

  it('lessonPriceBreakdown refuses a rate in pounds as a string and an unknown coupon kind', () => {
    expect(() => lessonPriceBreakdown(untyped({ hourlyRatePence: '25.00', durationMinutes: 60 }))).toThrow(InvalidInput)
    expect(() => lessonPriceBreakdown(untyped({ hourlyRatePence: 2500, durationMinutes: 60, coupon: { kind: 'half' } }))).toThrow(InvalidInput)
  })
})
