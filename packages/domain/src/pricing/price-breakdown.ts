import { DEFAULT_SERVICE_FEE_PERCENT, percentOf, roundHalfUp, type Pence } from '../shared'
import { discountOn, type CouponDiscount } from './coupon'

export type PriceInput = {
  hourlyRatePence: Pence
  durationMinutes: number
  serviceFeePercent?: number
  coupon?: CouponDiscount
}

/** Pence at every named step of CONTRACT.md §5; `initialTotal` is the total before the coupon. */
export type PriceBreakdown = {
  lessonPrice: Pence
  serviceFee: Pence
  initialTotal: Pence
  discount: Pence
  total: Pence
}

const assertNaturalNumber = (name: string, value: number): void => {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number >= 0`)
}

/**
 * lesson_price = rate x duration / 60; service_fee = percent of lesson_price; each rounded
 * half up. The coupon's discount comes off the total the customer would pay (fee included),
 * because the platform, not the tutor, funds coupons: the tutor's lesson price is unchanged.
 */
export const lessonPriceBreakdown = (input: PriceInput): PriceBreakdown => {
  assertNaturalNumber('hourlyRatePence', input.hourlyRatePence)
  assertNaturalNumber('durationMinutes', input.durationMinutes)
  const lessonPrice = roundHalfUp(input.hourlyRatePence * input.durationMinutes, 60)
  const serviceFee = percentOf(lessonPrice, input.serviceFeePercent ?? DEFAULT_SERVICE_FEE_PERCENT)
  const initialTotal = lessonPrice + serviceFee
  const discount = input.coupon ? discountOn(initialTotal, input.coupon) : 0
  return { lessonPrice, serviceFee, initialTotal, discount, total: initialTotal - discount }
}
