import { describe, expect, it } from 'vitest'
import { lessonPriceBreakdown } from '@tutoring/domain/pricing'
import { presentPriceBreakdown, presentSearchPriceBreakdown } from './pricing.schemas'

describe('price breakdown on the wire', () => {
  const breakdown = lessonPriceBreakdown({
    hourlyRatePence: 2500,
    durationMinutes: 60,
    coupon: { kind: 'fixed', amountOffPence: 500 },
  })

  it('gives search results sign, currency and two-decimal strings only', () => {
    expect(presentSearchPriceBreakdown(breakdown)).toEqual({
      sign: '£',
      currency_code: 'GBP',
      lesson_price: '25.00',
      service_fee: '2.50',
      total: '22.50',
    })
  })

  it('adds display format, discount and initial total in the availability response', () => {
    expect(presentPriceBreakdown(breakdown)).toEqual({
      sign: '£',
      currency_code: 'GBP',
      display_format: '£{amount}',
      lesson_price: '25.00',
      service_fee: '2.50',
      total: '22.50',
      discount_amount: '5.00',
      initial_total: '27.50',
    })
  })
})
