import { describe, expect, it } from 'vitest'
import { offlineProcessor } from './offline-processor'

describe('offline processor payment intents', () => {
  it('authorises with the payment methods it made itself when attaching, whatever characters their ids hold', async () => {
    const processor = offlineProcessor()
    for (let i = 0; i < 200; i++) {
      const attached = await processor.attachCard('cus_offline_test', 'pm_card_visa')
      const paymentMethodId = attached._unsafeUnwrap().paymentMethodId
      const intent = await processor.createPaymentIntent({
        customerId: 'cus_offline_test',
        paymentMethodId,
        amountPence: 2750,
        captureMethod: 'manual',
        offSession: true,
        returnUrl: 'http://api.test/return',
        description: 'lesson',
        metadata: {},
        idempotencyKey: `test-${i}`,
      })
      expect(intent.isOk(), paymentMethodId).toBe(true)
    }
  })

  it('answers a repeated idempotency key with the first answer, as a usable Result', async () => {
    const processor = offlineProcessor()
    const input = { customerId: 'c', paymentMethodId: 'pm_card_chargeDeclined', amountPence: 100, captureMethod: 'manual' as const, offSession: false, returnUrl: 'http://x', description: 'd', metadata: {}, idempotencyKey: 'same' }
    const first = await processor.createPaymentIntent(input)
    const again = await processor.createPaymentIntent(input)
    expect(first.isErr() && again.isErr()).toBe(true)
    expect(again._unsafeUnwrapErr()).toEqual({ type: 'PaymentFailed', reason: 'Your card was declined.' })
  })
})
