import fc from 'fast-check'
import type { Coupon, CouponDiscount, PriceInput, RefundTier } from '@tutoring/domain/pricing'

/** A coupon that is valid now, with overrides for the case under test. */
export const aCoupon = (overrides: Partial<Coupon> = {}): Coupon => ({
  uid: 'WELCOME10',
  discount: { kind: 'percentage', percentOff: 10 },
  expiresAt: null,
  maxRedemptions: null,
  timesRedeemed: 0,
  maxRedemptionsPerUser: null,
  ...overrides,
})

export const arbCouponDiscount = (): fc.Arbitrary<CouponDiscount> =>
  fc.oneof(
    fc.record({
      kind: fc.constant('percentage' as const),
      // Two-decimal percentages, as configuration allows.
      percentOff: fc.integer({ min: 0, max: 10_000 }).map((points) => points / 100),
    }),
    fc.record({ kind: fc.constant('fixed' as const), amountOffPence: fc.integer({ min: 0, max: 50_000 }) }),
  )

export const arbPriceInput = (): fc.Arbitrary<PriceInput> =>
  fc.record(
    {
      hourlyRatePence: fc.integer({ min: 0, max: 50_000 }),
      durationMinutes: fc.integer({ min: 1, max: 600 }),
      serviceFeePercent: fc.integer({ min: 0, max: 5_000 }).map((points) => points / 100),
      coupon: arbCouponDiscount(),
    },
    { requiredKeys: ['hourlyRatePence', 'durationMinutes'] },
  )

export const arbCancellationPolicy = (): fc.Arbitrary<RefundTier[]> =>
  fc.uniqueArray(
    fc.record({ hoursBeforeStart: fc.integer({ min: 0, max: 168 }), refundPercent: fc.integer({ min: 0, max: 100 }) }),
    { minLength: 1, maxLength: 4, selector: (tier) => tier.hoursBeforeStart },
  )
