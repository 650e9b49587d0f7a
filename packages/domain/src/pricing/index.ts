export {
  type Coupon,
  type CouponDiscount,
  type CouponInvalid,
  couponInvalid,
  type CouponInvalidReason,
  discountOn,
  validateCoupon,
} from './coupon'
export { couponDiscountSchema, priceInputSchema } from './input-schema'
export { lessonPriceBreakdown, lessonPricer, type PriceBreakdown, type PriceInput, type PricingTerms } from './price-breakdown'
export { DEFAULT_CANCELLATION_POLICY, refundAmount, refundPercentFor, type RefundTier } from './refund'
