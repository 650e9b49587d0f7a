import { describe, expect, it } from 'vitest'
import { aCoupon } from '@tutoring/testkit'
import { discountOn, validateCoupon } from './coupon'

const now = new Date('2026-05-01T12:00:00Z')

describe('coupons', () => {
  it('accepts a coupon that is unexpired and under its limits', () => {
    const coupon = aCoupon({ expiresAt: new Date('2026-05-02T00:00:00Z'), maxRedemptions: 5, timesRedeemed: 4 })
    expect(validateCoupon('WELCOME10', coupon, { now, redeemedByUser: 0 })._unsafeUnwrap()).toBe(coupon)
  })

  it('rejects an unknown coupon', () => {
    expect(validateCoupon('NOPE', undefined, { now, redeemedByUser: 0 })._unsafeUnwrapErr()).toEqual({
      type: 'CouponInvalid',
      uid: 'NOPE',
      reason: 'not_found',
    })
  })

  it('rejects a coupon from the instant it expires', () => {
    const coupon = aCoupon({ expiresAt: now })
    expect(validateCoupon('WELCOME10', coupon, { now, redeemedByUser: 0 })._unsafeUnwrapErr().reason).toBe('expired')
  })

  it('rejects a coupon used as often as it may be', () => {
    const coupon = aCoupon({ maxRedemptions: 3, timesRedeemed: 3 })
    expect(validateCoupon('WELCOME10', coupon, { now, redeemedByUser: 0 })._unsafeUnwrapErr().reason).toBe(
      'usage_limit_reached',
    )
  })

  it('rejects a coupon this user has used as often as one user may', () => {
    const coupon = aCoupon({ maxRedemptionsPerUser: 1 })
    expect(validateCoupon('WELCOME10', coupon, { now, redeemedByUser: 1 })._unsafeUnwrapErr().reason).toBe(
      'user_usage_limit_reached',
    )
  })

  it('discounts a percentage half up and a fixed amount at most down to zero', () => {
    expect(discountOn(2750, { kind: 'percentage', percentOff: 15 })).toBe(413)
    expect(discountOn(300, { kind: 'fixed', amountOffPence: 500 })).toBe(300)
    expect(discountOn(300, { kind: 'percentage', percentOff: 0 })).toBe(0)
  })
})
