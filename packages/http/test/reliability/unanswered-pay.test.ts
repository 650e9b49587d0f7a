import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ProcessorUnavailable } from '@tutoring/adapters'
import { startStripeStandIn, testDatabaseKinds, type StripeStandIn } from '@tutoring/adapters/testing'
import { expireHolds } from '@tutoring/domain/booking'
import type { PaymentProcessor } from '@tutoring/domain/payments'
import { fakeClock } from '@tutoring/testkit'
import { createTestContext, type TestContext } from '../support/harness'
import { bookableTeach, freeHour, type Teach } from '../support/paid-lessons'

type One<T> = { data: T }

/**
 * Issue 14 (kill -9): a pay whose processor call went unanswered leaves its payment row
 * `requires_confirmation` with no intent id, though the processor may have authorised. When
 * the hold lapses, the intent made for that row is found by its metadata and voided, so no
 * money stays held on the card; with none made, the row is simply closed.
 */
describe.each(testDatabaseKinds().flatMap((kind) => (['offline', 'stripe'] as const).map((processor) => [kind, processor] as const)))(
  'a pay cut off mid-call, on %s with the %s processor',
  (kind, processorKind) => {
    let t: TestContext
    let api: StripeStandIn | null = null
    let teach: Teach
    const clock = fakeClock(new Date())
    // `authorise`: the processor does the work and the answer is lost; `refuse`: nothing reaches it.
    const cutOff: { mode: 'authorise' | 'refuse' | null } = { mode: null }
    const processor = (real: PaymentProcessor): PaymentProcessor => ({
      ...real,
      async createPaymentIntent(input) {
        if (cutOff.mode === 'refuse') throw new ProcessorUnavailable(new Error('connect ECONNREFUSED'))
        const answer = await real.createPaymentIntent(input)
        if (cutOff.mode === 'authorise') throw new ProcessorUnavailable(new Error('socket hang up'))
        return answer
      },
    })

    beforeAll(async () => {
      if (processorKind === 'stripe') api = await startStripeStandIn()
      const env: Record<string, string> = api ? { STRIPE_SECRET_KEY: api.secretKey, STRIPE_API_BASE: api.url } : {}
      t = await createTestContext(kind, env, { processor, clock })
      teach = await bookableTeach(t)
    })
    afterAll(async () => {
      await t?.close()
      await api?.close()
    })

    /** Books an hour and pays it while the processor call is cut off as `mode` says. */
    const cutOffPay = async (mode: 'authorise' | 'refuse') => {
      clock.set(new Date())
      const student = await t.register('student')
      const booking = await t.request<One<{ id: number }>>('POST', '/api/bookings', {
        token: student.token,
        body: { teach_id: teach.id, subject_level_id: teach.levelId, lesson_type: 3, ...(await freeHour(t, teach, 2, 5)) },
      })
      expect(booking.status, booking.text).toBe(201)
      cutOff.mode = mode
      const paid = await t.request<{ code: string }>('POST', '/api/payments/pay', {
        token: student.token,
        body: { booking_id: booking.body.data.id, payment_method: 'pm_card_visa' },
      }).finally(() => {
        cutOff.mode = null
      })
      expect([paid.status, paid.body.code]).toEqual([503, 'processor_unavailable'])
      const payment = await t.db.selectFrom('payments').selectAll().where('booking_id', '=', booking.body.data.id).executeTakeFirstOrThrow()
      expect([payment.status, payment.processor_payment_intent_id]).toEqual(['requires_confirmation', null])
      return { bookingId: booking.body.data.id, paymentId: payment.id, student }
    }
    /** The hold lapses, the hold worker runs, and the outbox delivers what it queued. */
    const holdLapses = async () => {
      clock.advance(16 * 60_000)
      const { expired } = await expireHolds(t.services.bookings)
      expect(expired).toBeGreaterThanOrEqual(1)
      await t.infra.deliverOutbox()
    }

    it('voids the authorisation the processor made for the row, and records it canceled', async () => {
      const { paymentId } = await cutOffPay('authorise')
      const held = await t.infra.processor.findPaymentIntentByPaymentId(paymentId)
      expect(held).toMatchObject({ status: 'requires_capture', amountCapturablePence: expect.any(Number) })
      expect(held!.amountCapturablePence).toBeGreaterThan(0)

      await holdLapses()
      const row = await t.db.selectFrom('payments').selectAll().where('id', '=', paymentId).executeTakeFirstOrThrow()
      // A voided authorisation took nothing, so nothing was refunded (refunded never exceeds captured).
      expect([row.status, row.processor_payment_intent_id, row.refunded_pence]).toEqual(['canceled', held!.id, 0])
      const after = await t.infra.processor.retrievePaymentIntent(held!.id)
      expect([after.status, after.amountCapturablePence]).toEqual(['canceled', 0])
      if (api) expect(api.effects.filter((e) => e.path === `/v1/payment_intents/${held!.id}/cancel`)).toHaveLength(1)
      const syncs = (await t.outbox({ kind: 'processor_sync', topic: 'payment.cancel' })).filter((m) => (m.payload as { data: { paymentId: number } }).data.paymentId === paymentId)
      expect(syncs.map((m) => m.delivered_at)).toEqual([expect.any(Date)])
    })

    it('voids that authorisation when the booker releases the unanswered attempt (DELETE /api/v1/payments/{id})', async () => {
      const { paymentId, student } = await cutOffPay('authorise')
      const held = await t.infra.processor.findPaymentIntentByPaymentId(paymentId)
      expect(held?.status).toBe('requires_capture')

      const released = await t.request<One<{ status: string }>>('DELETE', `/api/v1/payments/${paymentId}`, { token: student.token })
      expect([released.status, released.body.data.status], released.text).toEqual([200, 'canceled'])
      expect((await t.infra.processor.retrievePaymentIntent(held!.id)).status).toBe('canceled')
      const row = await t.db.selectFrom('payments').selectAll().where('id', '=', paymentId).executeTakeFirstOrThrow()
      expect([row.status, row.processor_payment_intent_id]).toEqual(['canceled', held!.id])
    })

    it('voids that authorisation when the booker pays the attempt again with another card (PUT /api/v1/payments/{id})', async () => {
      const { paymentId, student } = await cutOffPay('authorise')
      const held = await t.infra.processor.findPaymentIntentByPaymentId(paymentId)
      expect(held?.status).toBe('requires_capture')

      const retried = await t.request<One<{ id: number; status: string }>>('PUT', `/api/v1/payments/${paymentId}`, { token: student.token, body: { payment_method: 'pm_card_mastercard' } })
      expect([retried.status, retried.body.data.status], retried.text).toEqual([200, 'requires_capture'])
      // CONTRACT §17: that payment is retried, so the answer keeps its id; the lost authorisation is voided.
      expect(retried.body.data.id).toBe(paymentId)
      clock.advance(60_000)
      await t.infra.deliverOutbox()
      expect((await t.infra.processor.retrievePaymentIntent(held!.id)).status).toBe('canceled')
      const row = await t.db.selectFrom('payments').selectAll().where('id', '=', paymentId).executeTakeFirstOrThrow()
      expect(row.status).toBe('requires_capture')
      expect(row.processor_payment_intent_id).not.toBe(held!.id)
    })

    it('closes the row with nothing to void when the processor never made an intent for it', async () => {
      const { paymentId } = await cutOffPay('refuse')
      expect(await t.infra.processor.findPaymentIntentByPaymentId(paymentId)).toBeNull()
      const cancels = () => api?.effects.filter((e) => /\/cancel$/.test(e.path)).length ?? 0
      const before = cancels()

      await holdLapses()
      const row = await t.db.selectFrom('payments').selectAll().where('id', '=', paymentId).executeTakeFirstOrThrow()
      expect([row.status, row.processor_payment_intent_id]).toEqual(['canceled', null])
      expect(cancels()).toBe(before)
    })
  },
)
