import { CURRENCY, formatPence } from '../shared'
import type { PriceBreakdown } from './price-breakdown'

/** The search result's breakdown (SPEC.md): no discount, initial total or display format. */
export type PriceBreakdownWire = {
  sign: string
  currency_code: string
  lesson_price: string
  service_fee: string
  total: string
}

/** The availability response's breakdown carries the coupon and the display format too. */
export type AvailabilityPriceBreakdownWire = PriceBreakdownWire & {
  display_format: string
  discount_amount: string
  initial_total: string
}

export const presentPriceBreakdown = (b: PriceBreakdown): PriceBreakdownWire => ({
  sign: CURRENCY.sign,
  currency_code: CURRENCY.code,
  lesson_price: formatPence(b.lessonPrice),
  service_fee: formatPence(b.serviceFee),
  total: formatPence(b.total),
})

export const presentAvailabilityPriceBreakdown = (b: PriceBreakdown): AvailabilityPriceBreakdownWire => ({
  ...presentPriceBreakdown(b),
  display_format: CURRENCY.displayFormat,
  discount_amount: formatPence(b.discount),
  initial_total: formatPence(b.initialTotal),
})
