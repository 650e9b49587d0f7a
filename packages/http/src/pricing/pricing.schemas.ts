import { z } from '@hono/zod-openapi'
import type { PriceBreakdown } from '@tutoring/domain/pricing'
import { CURRENCY, formatPence } from '@tutoring/domain/shared'

/** The search result's breakdown (SPEC.md): no discount, initial total or display format. */
export const SearchPriceBreakdownSchema = z.object({
  sign: z.string().openapi({ example: '£' }),
  currency_code: z.string().openapi({ example: 'GBP' }),
  lesson_price: z.string().openapi({ example: '25.00' }),
  service_fee: z.string().openapi({ example: '2.50' }),
  total: z.string().openapi({ example: '27.50' }),
})

/** The availability response's breakdown (also a coupon check's) carries the coupon and the display format too. */
export const PriceBreakdownSchema = SearchPriceBreakdownSchema.extend({
  display_format: z.string().openapi({ example: '£{amount}' }),
  discount_amount: z.string().openapi({ example: '0.00' }),
  initial_total: z.string().openapi({ example: '27.50' }),
})

export const presentSearchPriceBreakdown = (b: PriceBreakdown): z.infer<typeof SearchPriceBreakdownSchema> => ({
  sign: CURRENCY.sign,
  currency_code: CURRENCY.code,
  lesson_price: formatPence(b.lessonPrice),
  service_fee: formatPence(b.serviceFee),
  total: formatPence(b.total),
})

export const presentPriceBreakdown = (b: PriceBreakdown): z.infer<typeof PriceBreakdownSchema> => ({
  ...presentSearchPriceBreakdown(b),
  display_format: CURRENCY.displayFormat,
  discount_amount: formatPence(b.discount),
  initial_total: formatPence(b.initialTotal),
})
