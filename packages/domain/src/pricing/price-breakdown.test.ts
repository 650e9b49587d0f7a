import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { arbPriceInput } from '@tutoring/testkit'
import { InvalidInput } from '../shared'
import { lessonPriceBreakdown, lessonPricer } from './price-breakdown'

describe('lesson price breakdown', () => {
  it('prices the lesson as hourly rate x duration / 60', () => {
    expect(lessonPriceBreakdown({ hourlyRatePence: 2500, durationMinutes: 60 }).lessonPrice).toBe(2500)
    expect(lessonPriceBreakdown({ hourlyRatePence: 2500, durationMinutes: 90 }).lessonPrice).toBe(3750)
  })

  it('rounds the lesson price half up to the penny', () => {
    // 1001 x 45 / 60 = 750.75 -> 751; 1002 x 45 / 60 = 751.5 -> 752; 1003 x 20 / 60 = 334.33 -> 334
    expect(lessonPriceBreakdown({ hourlyRatePence: 1001, durationMinutes: 45 }).lessonPrice).toBe(751)
    expect(lessonPriceBreakdown({ hourlyRatePence: 1002, durationMinutes: 45 }).lessonPrice).toBe(752)
    expect(lessonPriceBreakdown({ hourlyRatePence: 1003, durationMinutes: 20 }).lessonPrice).toBe(334)
  })

  it('charges a 10 % service fee of the lesson price by default', () => {
    const b = lessonPriceBreakdown({ hourlyRatePence: 2500, durationMinutes: 60 })
    expect(b).toEqual({ lessonPrice: 2500, serviceFee: 250, initialTotal: 2750, discount: 0, total: 2750 })
  })

  it('rounds the service fee half up from the rounded lesson price', () => {
    // lesson 2505 -> fee 250.5 -> 251
    expect(lessonPriceBreakdown({ hourlyRatePence: 2505, durationMinutes: 60 }).serviceFee).toBe(251)
    expect(lessonPriceBreakdown({ hourlyRatePence: 2504, durationMinutes: 60 }).serviceFee).toBe(250)
  })

  it('takes a configured service fee percentage with decimals', () => {
    expect(lessonPriceBreakdown({ hourlyRatePence: 1000, durationMinutes: 60, serviceFeePercent: 12.5 }).serviceFee).toBe(125)
    expect(lessonPriceBreakdown({ hourlyRatePence: 1000, durationMinutes: 60, serviceFeePercent: 0 }).serviceFee).toBe(0)
  })

  it('takes a percentage coupon off the initial total, half up, and keeps it as initial_total', () => {
    const b = lessonPriceBreakdown({
      hourlyRatePence: 2500,
      durationMinutes: 60,
      coupon: { kind: 'percentage', percentOff: 15 },
    })
    // 15 % of 2750 = 412.5 -> 413
    expect(b).toEqual({ lessonPrice: 2500, serviceFee: 250, initialTotal: 2750, discount: 413, total: 2337 })
  })

  it('takes a fixed coupon off the total', () => {
    const b = lessonPriceBreakdown({ hourlyRatePence: 2500, durationMinutes: 60, coupon: { kind: 'fixed', amountOffPence: 500 } })
    expect(b.discount).toBe(500)
    expect(b.total).toBe(2250)
  })

  it('never lets a coupon make the total negative', () => {
    const fixed = lessonPriceBreakdown({ hourlyRatePence: 1000, durationMinutes: 30, coupon: { kind: 'fixed', amountOffPence: 9999 } })
    expect(fixed).toMatchObject({ initialTotal: 550, discount: 550, total: 0 })
    const free = lessonPriceBreakdown({ hourlyRatePence: 1000, durationMinutes: 30, coupon: { kind: 'percentage', percentOff: 100 } })
    expect(free.total).toBe(0)
  })

  it('refuses fractional pence or minutes as a bug', () => {
    expect(() => lessonPriceBreakdown({ hourlyRatePence: 10.5, durationMinutes: 60 })).toThrow(InvalidInput)
    expect(() => lessonPriceBreakdown({ hourlyRatePence: 1000, durationMinutes: -30 })).toThrow(InvalidInput)
  })

  it('always has total = lesson price + fee - discount >= 0, every step whole pence', () => {
    fc.assert(
      fc.property(arbPriceInput(), (input) => {
        const b = lessonPriceBreakdown(input)
        expect(b.total).toBe(b.lessonPrice + b.serviceFee - b.discount)
        expect(b.initialTotal).toBe(b.lessonPrice + b.serviceFee)
        expect(b.total).toBeGreaterThanOrEqual(0)
        expect(b.discount).toBeGreaterThanOrEqual(0)
        for (const amount of Object.values(b)) expect(Number.isInteger(amount)).toBe(true)
      }),
      { numRuns: 1000 },
    )
  })
})

describe('lesson pricer', () => {
  it('prices every rate as lessonPriceBreakdown does on the same terms', () => {
    fc.assert(
      fc.property(fc.nat({ max: 1_000_000 }), fc.integer({ min: 0, max: 600 }), fc.option(fc.integer({ min: 0, max: 10_000 }).map((bp) => bp / 100), { nil: undefined }), (hourlyRatePence, durationMinutes, serviceFeePercent) => {
        const terms = serviceFeePercent === undefined ? { durationMinutes } : { durationMinutes, serviceFeePercent }
        expect(lessonPricer(terms)(hourlyRatePence)).toEqual(lessonPriceBreakdown({ ...terms, hourlyRatePence }))
      }),
    )
  })

  it('refuses terms and rates outside the schema with InvalidInput', () => {
    expect(() => lessonPricer({ durationMinutes: 1.5 })).toThrow(InvalidInput)
    expect(() => lessonPricer({ durationMinutes: 60, serviceFeePercent: 101 })).toThrow(InvalidInput)
    const priceOf = lessonPricer({ durationMinutes: 60 })
    for (const rate of [-1, 12.5, Number.NaN, 2 ** 53]) expect(() => priceOf(rate)).toThrow(InvalidInput)
  })
})
