import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import type { PaymentProcessor } from '@tutoring/domain/payments'
import { fakeClock } from '@tutoring/testkit'
import { createTestContext, type TestContext } from '../support/harness'
import { recordFinding } from '../support/findings'
import { bookableTeach, paidLesson, type Teach } from '../support/paid-lessons'

const FAILURES = 15

/**
 * Issue 13: refunds, captures and processor syncs were dropped after 10 failed deliveries
 * (about 8.5 hours) with a warning only. Money is never discarded.
 */
describe.each(testDatabaseKinds())('a refund the processor keeps refusing, on %s', (kind) => {
  let t: TestContext
  let teach: Teach
  const clock = fakeClock(new Date())
  const processorDown = { on: false, calls: 0 }
  const processor = (offline: PaymentProcessor): PaymentProcessor => ({
    ...offline,
    async cancelPaymentIntent(id, input) {
      processorDown.calls++
      if (processorDown.on) throw new Error('processor unavailable (503)')
      return offline.cancelPaymentIntent(id, input)
    },
  })

  beforeAll(async () => {
    t = await createTestContext(kind, { INTERNAL_MAILBOX: 'staff@tutoring.test' }, { processor, clock })
    teach = await bookableTeach(t)
  })
  afterAll(() => t.close())

  it(`keeps the release of a cancelled lesson's money queued through ${FAILURES} failures, tells staff once, and sends it when the processor is back`, async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'Money: failing refunds and syncs are dropped',
      tried: `a cancelled lesson's card hold to release while the processor fails ${FAILURES} times in a row (about 2.5 days)`,
      held: 'the sync still queued (marked failing, listed for staff, one staff email), released once the processor answers; nothing dropped',
    })
    const student = await t.register('student')
    const { booking, pay } = await paidLesson(t, teach, student, [2, 5])
    expect(pay.status).toBe('requires_capture')
    const cancelled = await t.request<{ data: { state_name: string } }>('PUT', `/api/bookings/${booking.id}/cancel`, { token: student.token })
    expect(cancelled.body.data.state_name).toBe('REFUNDED')
    const [sync] = (await t.outbox({ kind: 'processor_sync', topic: 'payment.cancel' })).filter((m) => (m.payload as { data: { paymentId: number } }).data.paymentId === pay.payment_id)
    expect(sync).toBeDefined()

    processorDown.on = true
    for (let i = 0; i < FAILURES; i++) {
      const row = (await t.outbox({ kind: 'processor_sync' })).find((m) => m.id === sync!.id)!
      clock.set(new Date(Math.max(row.available_at.getTime(), clock.now().getTime()) + 1_000))
      await t.infra.deliverOutbox()
    }
    const kept = (await t.outbox({ kind: 'processor_sync' })).find((m) => m.id === sync!.id)!
    expect(kept).toMatchObject({ attempts: FAILURES, delivered_at: null, last_error: 'processor unavailable (503)' })
    expect(kept.failed_at).toBeInstanceOf(Date)
    expect((await t.infra.outbox.listFailing()).map((m) => m.id)).toContain(sync!.id)
    const alerts = (await t.outbox({ kind: 'email' })).filter((m) => m.topic === 'outbox_failing')
    expect(alerts).toHaveLength(1)
    expect(alerts[0]!.payload).toMatchObject({ to: 'staff@tutoring.test', data: { outboxId: sync!.id, topic: 'payment.cancel' } })

    processorDown.on = false
    clock.set(new Date(kept.available_at.getTime() + 1_000))
    await t.infra.deliverOutbox()
    const row = await t.db.selectFrom('payments').select(['status', 'processor_payment_intent_id']).where('id', '=', pay.payment_id).executeTakeFirstOrThrow()
    expect(row.status).toBe('canceled')
    expect((await t.infra.processor.retrievePaymentIntent(row.processor_payment_intent_id!)).status).toBe('canceled')
    expect((await t.outbox({ kind: 'processor_sync' })).find((m) => m.id === sync!.id)!.delivered_at).toBeInstanceOf(Date)
    finding.figures = { 'faults injected': FAILURES, lost: 0, 'staff alerts': alerts.length }
  })
})
