import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { failingPayments } from '@tutoring/adapters'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { PAYMENT_FAILURES_BEFORE_STAFF_ALERT, runDuePayments } from '@tutoring/domain/booking-payments'
import { createTestContext, type TestContext } from '../support/harness'
import { recordFinding } from '../support/findings'
import { clockAhead, faultyProcessor } from '@tutoring/testkit'
import { bookableTeach, DAY, paidLesson, type Teach } from '../support/paid-lessons'

/**
 * Issue 13: one capture the processor refused made the due-payments job throw inside its
 * claim, so every run retried the same earliest row and no later lesson was ever captured.
 */
describe.each(testDatabaseKinds())('due payments with one the processor refuses, on %s', (kind) => {
  let t: TestContext
  let teach: Teach
  const faults = faultyProcessor()

  beforeAll(async () => {
    t = await createTestContext(kind, { INTERNAL_MAILBOX: 'staff@tutoring.test' }, { processor: faults.wrap })
    teach = await bookableTeach(t)
  })
  afterAll(() => t.close())

  const paymentOf = (bookingId: number) => t.db.selectFrom('payments').selectAll().where('booking_id', '=', bookingId).executeTakeFirstOrThrow()

  it('captures the other due payment in the same run, and retries the refused one with backoff until it goes through', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'Money: one refused capture blocks the others',
      tried: 'two finished lessons due for capture, the processor refusing the earlier one, runs repeated as time passes',
      held: 'the other captured in the first run; the refused one recorded on its row (attempts, error, next try), skipped until then, staff emailed once, captured when the processor recovers',
    })
    const first = await paidLesson(t, teach, await t.register('student'), [1, 3])
    const second = await paidLesson(t, teach, await t.register('student'), [3, 5])
    expect([first.pay.status, second.pay.status]).toEqual(['requires_capture', 'requires_capture'])
    const refused = await paymentOf(first.booking.id)
    faults.refuseCaptureOf.add(refused.processor_payment_intent_id!)

    // A week on, both lessons are over; the refused one is the earliest due.
    let offset = 7 * DAY
    const run = () => runDuePayments({ ...t.services.bookings, clock: clockAhead(offset) })
    const report = await run()
    expect(report).toMatchObject({ captured: 1, retrying: 1 })
    const captured = await paymentOf(second.booking.id)
    expect(captured).toMatchObject({ status: 'succeeded', captured_pence: captured.amount_pence })
    const detail = await t.request<{ data: { state_name: string } }>('GET', `/api/bookings/${second.booking.id}`, { token: (await t.internalUser()).token })
    expect(detail.body.data.state_name).toBe('PAYED')
    const failed = await paymentOf(first.booking.id)
    expect(failed).toMatchObject({ status: 'requires_capture', failed_attempts: 1 })
    expect(failed.last_error).toMatch(/could not be captured/)
    expect(failed.retry_at!.getTime()).toBeGreaterThan(Date.now() + offset)
    // Staff see it beside the failing outbox messages (`cli outbox:failed`).
    expect(await failingPayments(t.db).list()).toEqual([{ id: refused.id, bookingId: first.booking.id, work: 'capture', attempts: 1, retryAt: failed.retry_at, lastError: failed.last_error }])

    // Not tried again before its next try, so nothing hammers the processor.
    const capturesSoFar = faults.calls.captures.length
    expect(await run()).toMatchObject({ captured: 0, retrying: 0 })
    expect(faults.calls.captures).toHaveLength(capturesSoFar)

    // Each later try that fails pushes the next one further out; the threshold tells staff, once.
    const gaps: number[] = []
    for (let attempt = 2; attempt <= PAYMENT_FAILURES_BEFORE_STAFF_ALERT + 1; attempt++) {
      const before = (await paymentOf(first.booking.id)).retry_at!.getTime()
      offset = before - Date.now() + 1_000
      expect(await run()).toMatchObject({ retrying: 1 })
      const row = await paymentOf(first.booking.id)
      expect(row.failed_attempts).toBe(attempt)
      gaps.push(row.retry_at!.getTime() - before)
    }
    expect(gaps[1]!).toBeGreaterThan(gaps[0]!)
    const alerts = (await t.outbox({ kind: 'email' })).filter((m) => m.topic === 'payment_stuck')
    expect(alerts).toHaveLength(1)
    expect(alerts[0]!.payload).toMatchObject({ to: 'staff@tutoring.test', data: { paymentId: refused.id, attempts: PAYMENT_FAILURES_BEFORE_STAFF_ALERT } })

    faults.refuseCaptureOf.clear()
    offset = (await paymentOf(first.booking.id)).retry_at!.getTime() - Date.now() + 1_000
    expect(await run()).toMatchObject({ captured: 1, retrying: 0 })
    expect(await paymentOf(first.booking.id)).toMatchObject({ status: 'succeeded', failed_attempts: 0, retry_at: null, last_error: null })
    expect(await failingPayments(t.db).list()).toEqual([])
    finding.figures = { 'due payments': 2, 'refusals injected': PAYMENT_FAILURES_BEFORE_STAFF_ALERT + 1, 'captured': 2, 'staff alerts': alerts.length }
  })
})
