import { checkInput, DEFAULT_SERVICE_FEE_PERCENT, percentOf, roundHalfUp, type Pence } from '../shared'
import { discountOn, type CouponDiscount } from './coupon'
import { priceInputSchema } from './input-schema'

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

/**
 * lesson_price = rate x duration / 60; service_fee = percent of lesson_price; each rounded
 * half up. The coupon's discount comes off the total the customer would pay (fee included),
 * because the platform, not the tutor, funds coupons: the tutor's lesson price is unchanged.
 * Input outside priceInputSchema (a fractional rate, a negative duration) throws InvalidInput.
 */
export const lessonPriceBreakdown = (input: PriceInput): PriceBreakdown => {
  checkInput<PriceInput>('lessonPriceBreakdown', priceInputSchema, input)
  const lessonPrice = roundHalfUp(input.hourlyRatePence * input.durationMinutes, 60)
  const serviceFee = percentOf(lessonPrice, input.serviceFeePercent ?? DEFAULT_SERVICE_FEE_PERCENT)
  const initialTotal = lessonPrice + serviceFee
  const discount = input.coupon ? discountOn(initialTotal, input.coupon) : 0
  return { lessonPrice, serviceFee, initialTotal, discount, total: initialTotal - discount }
}
