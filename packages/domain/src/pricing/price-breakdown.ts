import { checkInput, DEFAULT_SERVICE_FEE_PERCENT, penceSchema, percentOf, roundHalfUp, type Pence } from '../shared'
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
  return breakdown(input)
}

/** The duration and fee a page of search results is priced at: every hit alike. */
export type PricingTerms = Pick<PriceInput, 'durationMinutes' | 'serviceFeePercent'>

const pricingTermsSchema = priceInputSchema.pick({ durationMinutes: true, serviceFeePercent: true })

/**
 * `lessonPriceBreakdown` without a coupon for many hourly rates on the same terms (a search
 * page): the terms are checked once, here, and each rate as it is priced, without a zod parse
 * when it is whole pence (search priced 15 hits with 15 parses of the whole input). Input
 * outside the schemas throws InvalidInput, as `lessonPriceBreakdown` does.
 */
export const lessonPricer = (terms: PricingTerms): ((hourlyRatePence: Pence) => PriceBreakdown) => {
  checkInput<PricingTerms>('lessonPricer', pricingTermsSchema, terms)
  return (hourlyRatePence) => {
    if (!Number.isSafeInteger(hourlyRatePence) || hourlyRatePence < 0) checkInput<Pence>('lessonPricer', penceSchema, hourlyRatePence)
    return breakdown({ ...terms, hourlyRatePence })
  }
}

function breakdown(input: PriceInput): PriceBreakdown {
  const lessonPrice = roundHalfUp(input.hourlyRatePence * input.durationMinutes, 60)
  const serviceFee = percentOf(lessonPrice, input.serviceFeePercent ?? DEFAULT_SERVICE_FEE_PERCENT)
  const initialTotal = lessonPrice + serviceFee
  const discount = input.coupon ? discountOn(initialTotal, input.coupon) : 0
  return { lessonPrice, serviceFee, initialTotal, discount, total: initialTotal - discount }
}
