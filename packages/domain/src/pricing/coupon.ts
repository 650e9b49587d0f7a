import { err, ok, type Result } from 'neverthrow'
import { percentOf, type Pence } from '../shared'

export type CouponDiscount =
  | { kind: 'percentage'; percentOff: number }
  | { kind: 'fixed'; amountOffPence: Pence }

/** A coupon as stored: `null` limits mean "no limit". */
export type Coupon = {
  uid: string
  discount: CouponDiscount
  expiresAt: Date | null
  maxRedemptions: number | null
  timesRedeemed: number
  maxRedemptionsPerUser: number | null
}

export type CouponInvalidReason = 'not_found' | 'expired' | 'usage_limit_reached' | 'user_usage_limit_reached'
export type CouponInvalid = { type: 'CouponInvalid'; uid: string; reason: CouponInvalidReason }

export const couponInvalid = (uid: string, reason: CouponInvalidReason): CouponInvalid => ({
  type: 'CouponInvalid',
  uid,
  reason,
})

/**
 * Checks a coupon for one redemption by one user at `now`. `undefined` is an unknown uid, so
 * the caller can pass a repository lookup straight in.
 */
export const validateCoupon = (
  uid: string,
  coupon: Coupon | undefined,
  usage: { now: Date; redeemedByUser: number },
): Result<Coupon, CouponInvalid> => {
  if (!coupon) return err(couponInvalid(uid, 'not_found'))
  if (coupon.expiresAt && usage.now.getTime() >= coupon.expiresAt.getTime()) {
    return err(couponInvalid(uid, 'expired'))
  }
  if (coupon.maxRedemptions !== null && coupon.timesRedeemed >= coupon.maxRedemptions) {
    return err(couponInvalid(uid, 'usage_limit_reached'))
  }
  if (coupon.maxRedemptionsPerUser !== null && usage.redeemedByUser >= coupon.maxRedemptionsPerUser) {
    return err(couponInvalid(uid, 'user_usage_limit_reached'))
  }
  return ok(coupon)
}

/**
 * The discount on an amount: a percentage of it rounded half up, or a fixed sum; never more
 * than the amount, so a coupon can make a lesson free but never pay the customer.
 */
export const discountOn = (amount: Pence, discount: CouponDiscount): Pence => {
  const raw = discount.kind === 'percentage' ? percentOf(amount, discount.percentOff) : discount.amountOffPence
  return Math.min(amount, Math.max(0, raw))
}
