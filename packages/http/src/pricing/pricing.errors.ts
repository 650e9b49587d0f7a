import type { ErrorRows } from '../platform/error-spec'

/** The pricing context's rows of the error table (platform/domain-errors.ts): a coupon at booking or payment. */
export const pricingErrors = {
  CouponInvalid: {
    status: 422,
    code: 'coupon_invalid',
    title: 'Coupon invalid',
    detail: (e: { uid: string; reason: string }) => `Coupon ${e.uid} cannot be used: ${e.reason.replace(/_/g, ' ')}.`,
  },
} satisfies ErrorRows
