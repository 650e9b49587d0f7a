import { z } from 'zod'
import { penceSchema } from '../shared'

export const couponDiscountSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('percentage'), percentOff: z.number().min(0).max(100) }),
  z.object({ kind: z.literal('fixed'), amountOffPence: penceSchema }),
])

export const priceInputSchema = z.object({
  hourlyRatePence: penceSchema,
  durationMinutes: z.number().int().nonnegative(),
  serviceFeePercent: z.number().min(0).max(100).optional(),
  coupon: couponDiscountSchema.optional(),
})
