import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { arbCancellationPolicy } from '@tutoring/testkit'
import { DEFAULT_CANCELLATION_POLICY, refundAmount, refundPercentFor } from './refund'

const start = new Date('2026-06-10T10:00:00Z')
const hoursBefore = (hours: number) => new Date(start.getTime() - hours * 3_600_000)

describe('refunds by cancellation tier', () => {
  it('refunds 100 % 24 hours or more before the start by default', () => {
    expect(refundPercentFor(DEFAULT_CANCELLATION_POLICY, start, hoursBefore(24))).toBe(100)
    expect(refundPercentFor(DEFAULT_CANCELLATION_POLICY, start, hoursBefore(200))).toBe(100)
  })

  it('refunds 50 % less than 24 hours before the start by default', () => {
    expect(refundPercentFor(DEFAULT_CANCELLATION_POLICY, start, hoursBefore(23.99))).toBe(50)
    expect(refundPercentFor(DEFAULT_CANCELLATION_POLICY, start, hoursBefore(0))).toBe(50)
  })

  it('refunds nothing once the lesson has started, under the default policy', () => {
    expect(refundPercentFor(DEFAULT_CANCELLATION_POLICY, start, hoursBefore(-0.5))).toBe(0)
  })

  it('picks the tier with the most hours the notice meets, whatever order the tiers come in', () => {
    const policy = [
      { hoursBeforeStart: 0, refundPercent: 10 },
      { hoursBeforeStart: 48, refundPercent: 100 },
      { hoursBeforeStart: 12, refundPercent: 60 },
    ]
    expect(refundPercentFor(policy, start, hoursBefore(47))).toBe(60)
    expect(refundPercentFor(policy, start, hoursBefore(11))).toBe(10)
  })

  it('refunds a percentage of what was paid, half up', () => {
    expect(refundAmount(2750, 50)).toBe(1375)
    expect(refundAmount(2751, 50)).toBe(1376)
    expect(refundAmount(2750, 100)).toBe(2750)
  })

  it('never refunds more than was paid, nor less than nothing', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        arbCancellationPolicy(),
        fc.integer({ min: -100, max: 400 }),
        (paid, policy, hours) => {
          const refund = refundAmount(paid, refundPercentFor(policy, start, hoursBefore(hours)))
          expect(refund).toBeLessThanOrEqual(paid)
          expect(refund).toBeGreaterThanOrEqual(0)
        },
      ),
      { numRuns: 1000 },
    )
  })
})
