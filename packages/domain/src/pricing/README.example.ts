import {
  type Coupon,
  DEFAULT_CANCELLATION_POLICY,
  lessonPriceBreakdown,
  refundAmount,
  refundPercentFor,
  validateCoupon,
} from '@tutoring/domain/pricing'

// Money is integer pence. 90 minutes at £30 an hour, the default service fee, a 10 % coupon.
const coupon: Coupon = {
  uid: 'WELCOME10',
  discount: { kind: 'percentage', percentOff: 10 },
  expiresAt: new Date('2030-02-01T00:00:00Z'),
  maxRedemptions: 100,
  timesRedeemed: 12,
  maxRedemptionsPerUser: 1,
}
const now = new Date('2030-01-06T12:00:00Z')
const lesson = { hourlyRatePence: 3000, durationMinutes: 90 }
const price = validateCoupon('WELCOME10', coupon, { now, redeemedByUser: 0 })
  .map((valid) => lessonPriceBreakdown({ ...lesson, coupon: valid.discount }))
  .unwrapOr(lessonPriceBreakdown(lesson))
console.log(JSON.stringify(price))

// A coupon the user has already used is refused with its reason.
const again = validateCoupon('WELCOME10', coupon, { now, redeemedByUser: 1 })
if (again.isErr()) console.log(`coupon: ${again.error.reason}`)

// Cancelling: 24 h or more before the start refunds 100 %, less 50 %, after the start nothing.
const start = new Date('2030-01-07T09:00:00Z')
for (const hoursBefore of [48, 12, -1]) {
  const percent = refundPercentFor(DEFAULT_CANCELLATION_POLICY, start, new Date(start.getTime() - hoursBefore * 3_600_000))
  console.log(`${hoursBefore} h before: ${percent} % = ${refundAmount(price.total, percent)} pence`)
}
