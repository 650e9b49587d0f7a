import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signStripePayload, testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from './support/harness'
import { storedBooking } from './support/stored-booking'

const SECRET = 'whsec_payment_events'
type Answer = { data: { received: true; outcome: string; reason: string | null } }
let counter = 0
const eventId = () => `evt_${Date.now()}_${++counter}`

/**
 * Every event type the payments webhook handles, each delivered twice and out of order:
 * a repeat is a duplicate, and an event older than what is known changes nothing.
 */
describe.each(testDatabaseKinds())('payment webhook events in any order on %s', (kind) => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestContext(kind, { STRIPE_WEBHOOK_SECRET: SECRET })
  })
  afterAll(() => t.close())

  /** A booking in `state` with its payment in `status`, as the booking flow would leave them. */
  async function booking(state: number, status: 'requires_confirmation' | 'requires_capture' | 'succeeded' | 'canceled', amounts: { captured?: number; refunded?: number } = {}) {
    const { bookingId, tutor, student } = await storedBooking(t, state, counter)
    const intent = `pi_events_${Date.now()}_${++counter}`
    const p = await t.db
      .insertInto('payments')
      .values({
        booking_id: bookingId,
        user_id: student.user.id,
        processor_payment_intent_id: intent,
        processor_payment_method_id: 'pm_x',
        status,
        amount_pence: 3300,
        captured_pence: amounts.captured ?? 0,
        refunded_pence: amounts.refunded ?? 0,
        client_secret: null,
        redirect_url: null,
        authorize_at: null,
        capture_at: null,
        last_error: null,
        application_fee_pence: 300,
        transfer_group: `booking-${bookingId}`,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    return { bookingId, paymentId: p.id, intent, tutor, student }
  }
  const bookingState = async (id: number) => (await t.db.selectFrom('bookings').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state
  const payment = (intent: string) => t.db.selectFrom('payments').selectAll().where('processor_payment_intent_id', '=', intent).executeTakeFirstOrThrow()
  const timeline = async (id: number) => (await t.db.selectFrom('booking_events').select('kind').where('booking_id', '=', id).orderBy('id').execute()).map((e) => e.kind)

  const send = (event: { id: string }) => {
    const payload = JSON.stringify(event)
    return t.request<Answer>('POST', '/api/v1/payments/webhooks/accounts', {
      raw: payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': signStripePayload(payload, SECRET) },
    })
  }
  /** Sends the event twice: the second answers `duplicate`. Answers the first outcome. */
  const twice = async (event: { id: string }) => {
    const first = await send(event)
    expect(first.status, first.text).toBe(200)
    const again = await send(event)
    expect(again.body.data.outcome).toBe('duplicate')
    return first.body.data
  }
  const event = (type: string, object: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ id: eventId(), object: 'event', type, data: { object }, ...extra })
  const intentEvent = (type: string, intent: string, status: string, more: Record<string, unknown> = {}) =>
    event(type, { id: intent, object: 'payment_intent', status, amount: 3300, amount_received: status === 'succeeded' ? 3300 : 0, ...more })

  it('payment_intent.*: a late authorisation after the capture, or a failure after the hold, changes nothing', async () => {
    const { bookingId, intent } = await booking(3, 'requires_confirmation')
    expect(await twice(intentEvent('payment_intent.succeeded', intent, 'succeeded'))).toMatchObject({ outcome: 'handled' })
    expect(await bookingState(bookingId)).toBe(1)
    expect(await twice(intentEvent('payment_intent.amount_capturable_updated', intent, 'requires_capture'))).toEqual({ received: true, outcome: 'ignored', reason: 'stale' })
    expect(await twice(intentEvent('payment_intent.payment_failed', intent, 'requires_payment_method', { last_payment_error: { message: 'declined' } }))).toMatchObject({ reason: 'stale' })
    expect(await twice(intentEvent('payment_intent.canceled', intent, 'canceled'))).toMatchObject({ reason: 'stale' })
    expect(await payment(intent)).toMatchObject({ status: 'succeeded', captured_pence: 3300, last_error: null })
    expect(await bookingState(bookingId)).toBe(1)
    expect(await timeline(bookingId)).toEqual(['payment.succeeded'])

    const held = await booking(5, 'requires_capture')
    expect(await twice(intentEvent('payment_intent.payment_failed', held.intent, 'requires_payment_method', { last_payment_error: { message: 'declined' } }))).toMatchObject({ reason: 'stale' })
    expect(await payment(held.intent)).toMatchObject({ status: 'requires_capture', last_error: null })
    expect(await twice(intentEvent('payment_intent.canceled', held.intent, 'canceled'))).toMatchObject({ outcome: 'handled' })
    expect(await twice(intentEvent('payment_intent.amount_capturable_updated', held.intent, 'requires_capture'))).toMatchObject({ reason: 'stale' })
    expect((await payment(held.intent)).status).toBe('canceled')
  })

  it('a late payment_intent.succeeded after a refund changes nothing', async () => {
    const { bookingId, intent } = await booking(0, 'succeeded', { captured: 3300, refunded: 3300 })
    const before = await payment(intent)
    expect(await twice(intentEvent('payment_intent.succeeded', intent, 'succeeded'))).toEqual({ received: true, outcome: 'ignored', reason: 'stale' })
    expect(await payment(intent)).toEqual(before)
    expect(await bookingState(bookingId)).toBe(0)
    expect(await timeline(bookingId)).toEqual([])

    // Released before capture (cancelled unpaid): a late success takes nothing either.
    const released = await booking(3, 'canceled')
    await t.db.updateTable('lessons').set({ state: 0 }).where('id', '=', (await t.db.selectFrom('bookings').select('lesson_id').where('id', '=', released.bookingId).executeTakeFirstOrThrow()).lesson_id).execute()
    expect(await twice(intentEvent('payment_intent.succeeded', released.intent, 'succeeded'))).toMatchObject({ reason: 'stale' })
    expect(await payment(released.intent)).toMatchObject({ status: 'canceled', captured_pence: 0 })
    expect(await bookingState(released.bookingId)).toBe(3)
  })

  it('charge.succeeded, charge.failed: the amount captured only grows; a failure after the hold is history', async () => {
    const { bookingId, intent } = await booking(3, 'requires_confirmation')
    const charge = (type: string, more: Record<string, unknown>) => event(type, { id: `ch_${intent}`, object: 'charge', payment_intent: intent, ...more })
    expect(await twice(charge('charge.failed', { captured: false, failure_message: 'Your card was declined.' }))).toMatchObject({ outcome: 'handled' })
    expect((await payment(intent)).last_error).toBe('Your card was declined.')
    await send(intentEvent('payment_intent.amount_capturable_updated', intent, 'requires_capture'))
    expect(await twice(charge('charge.succeeded', { captured: true, amount_captured: 3300 }))).toMatchObject({ outcome: 'handled' })
    expect(await twice(charge('charge.succeeded', { captured: false, amount_captured: 0 }))).toMatchObject({ reason: 'stale' })
    expect(await twice(charge('charge.failed', { captured: false, failure_message: 'Late news.' }))).toMatchObject({ reason: 'stale' })
    expect(await payment(intent)).toMatchObject({ status: 'requires_capture', captured_pence: 3300, last_error: null })
    expect(await timeline(bookingId)).toEqual(['payment.charge_failed', 'payment.amount_capturable_updated', 'payment.charge_succeeded'])
  })

  it('charge.refunded: an older, smaller total after a larger one changes nothing', async () => {
    const { intent } = await booking(1, 'succeeded', { captured: 3300 })
    const refunded = (total: number) => event('charge.refunded', { id: 'ch_r', object: 'charge', payment_intent: intent, amount_refunded: total })
    expect(await twice(refunded(3300))).toMatchObject({ outcome: 'handled' })
    expect(await twice(refunded(1650))).toMatchObject({ reason: 'stale' })
    expect((await payment(intent)).refunded_pence).toBe(3300)
  })

  it('charge.dispute.*: shows on the booking, tells staff once, and a closed dispute stays closed', async () => {
    const { bookingId, intent, student } = await booking(1, 'succeeded', { captured: 3300 })
    const dispute = (type: string, status: string) => event(type, { id: `dp_${intent}`, object: 'dispute', payment_intent: intent, charge: 'ch_d', status, reason: 'fraudulent', amount: 3300 })
    // Closed arrives first: staff still hear of it, once.
    expect(await twice(dispute('charge.dispute.closed', 'lost'))).toMatchObject({ outcome: 'handled' })
    expect(await twice(dispute('charge.dispute.created', 'needs_response'))).toMatchObject({ reason: 'stale' })
    const shown = await t.request<{ data: { receipt: { payment: { dispute: unknown } } } }>('GET', `/api/bookings/${bookingId}`, { token: student.token })
    expect(shown.body.data.receipt.payment.dispute).toEqual({ status: 'lost', reason: 'fraudulent', amount: '33.00', opened_at: expect.any(String) })
    const told = (await t.outbox({ kind: 'email', topic: 'payment_disputed' })).filter((e) => (e.payload as { data: { bookingId: number } }).data.bookingId === bookingId)
    expect(told.map((e) => (e.payload as { to: string }).to)).toEqual([t.infra.config.INTERNAL_MAILBOX])

    const other = await booking(1, 'succeeded', { captured: 3300 })
    const opened = event('charge.dispute.created', { id: 'dp_other', object: 'dispute', payment_intent: other.intent, charge: 'ch_o', status: 'needs_response', reason: null, amount: 1000 })
    expect(await twice(opened)).toMatchObject({ outcome: 'handled' })
    expect(await payment(other.intent)).toMatchObject({ dispute_status: 'needs_response', dispute_amount_pence: 1000 })
    expect(await twice(event('charge.dispute.closed', { id: 'dp_other', object: 'dispute', payment_intent: other.intent, status: 'won', amount: 1000 }))).toMatchObject({ outcome: 'handled' })
    expect(await twice(event('charge.dispute.updated', { id: 'dp_other', object: 'dispute', payment_intent: other.intent, status: 'under_review', amount: 1000 }))).toMatchObject({ reason: 'unknown_type' })
    expect((await payment(other.intent)).dispute_status).toBe('won')
    expect(await timeline(other.bookingId)).toEqual(['payment.dispute_created', 'payment.dispute_closed'])
  })

  /** A tutor whose bank account is linked to `accountId` at the processor. */
  async function linkedTutor(accountId: string) {
    const tutor = await t.register('tutor')
    await t.db
      .insertInto('bank_accounts')
      .values({ user_id: tutor.user.id, account_holder_name: 'T', sort_code: '108800', last4: '2345', processor_token: null, processor_bank_account_id: 'ba_1', processor_account_id: accountId, linked_at: new Date(), deleted_at: null })
      .execute()
    return tutor
  }
  const accountEvent = (accountId: string, enabled: boolean, created: number) =>
    event('account.updated', { id: accountId, object: 'account', payouts_enabled: enabled }, { account: accountId, created })

  it("account.updated: an older state never overwrites a newer one; enabling queues the tutor's waiting shares once", async () => {
    const accountId = `acct_${Date.now()}`
    const { bookingId, paymentId } = await booking(1, 'succeeded', { captured: 3300 })
    const tutorId = (await t.db.selectFrom('bookings as b').innerJoin('lessons as l', 'l.id', 'b.lesson_id').select('l.tutor_id').where('b.id', '=', bookingId).executeTakeFirstOrThrow()).tutor_id
    await t.db.insertInto('bank_accounts').values({ user_id: tutorId, account_holder_name: 'T', sort_code: '108800', last4: '2345', processor_token: null, processor_bank_account_id: 'ba_2', processor_account_id: accountId, linked_at: new Date(), deleted_at: null }).execute()
    await t.db.insertInto('tutor_transfers').values({ payment_id: paymentId, tutor_id: tutorId, transfer_group: `booking-${bookingId}`, amount_pence: null, processor_transfer_id: null, processor_account_id: null, sent_at: null }).execute()
    const now = Math.floor(Date.now() / 1000)
    const queued = () => t.outbox({ kind: 'processor_sync', topic: 'payout.transfer' })

    expect(await twice(accountEvent(accountId, true, now))).toMatchObject({ outcome: 'handled' })
    expect(await twice(accountEvent(accountId, false, now - 60))).toMatchObject({ reason: 'stale' })
    expect(await t.db.selectFrom('payout_accounts').select('payouts_enabled').where('processor_account_id', '=', accountId).executeTakeFirstOrThrow()).toEqual({ payouts_enabled: true })
    expect(await twice(accountEvent(accountId, true, now + 1))).toMatchObject({ outcome: 'handled' })
    expect((await queued()).filter((m) => (m.payload as { data: { transferId: number } }).data.transferId !== undefined)).toHaveLength(1)
    expect((await t.db.selectFrom('tutor_transfers').select('status').where('payment_id', '=', paymentId).executeTakeFirstOrThrow()).status).toBe('queued')

    // Disabled later (newer), then an older enabling arrives: still disabled.
    expect(await twice(accountEvent(accountId, false, now + 120))).toMatchObject({ outcome: 'handled' })
    expect(await twice(accountEvent(accountId, true, now + 60))).toMatchObject({ reason: 'stale' })
    expect((await t.db.selectFrom('payout_accounts').select('payouts_enabled').where('processor_account_id', '=', accountId).executeTakeFirstOrThrow()).payouts_enabled).toBe(false)
    expect(await twice(accountEvent('acct_nobody', true, now))).toMatchObject({ reason: 'unknown_account' })
  })

  it('payout.paid, payout.failed: the tutor is emailed a failure once; a payout that failed stays failed', async () => {
    const accountId = `acct_payouts_${Date.now()}`
    const tutor = await linkedTutor(accountId)
    const payout = (type: string, id: string, failure: string | null) =>
      event(type, { id, object: 'payout', amount: 4200, status: type.split('.')[1], failure_message: failure }, { account: accountId })
    const failures = async () => (await t.outbox({ kind: 'email', topic: 'payout_failed' })).filter((e) => (e.payload as { to: string }).to === tutor.email)

    expect(await twice(payout('payout.paid', 'po_1', null))).toMatchObject({ outcome: 'handled' })
    expect(await twice(payout('payout.failed', 'po_1', 'The bank account has been closed.'))).toMatchObject({ outcome: 'handled' })
    expect(await twice(payout('payout.paid', 'po_1', null))).toMatchObject({ reason: 'stale' })
    const told = await failures()
    expect(told).toHaveLength(1)
    expect((told[0]!.payload as { data: { amount: string; reason: string } }).data).toMatchObject({ amount: '42.00', reason: 'The bank account has been closed.' })

    // Failed first, then a late "paid": no change, no second email.
    expect(await twice(payout('payout.failed', 'po_2', 'No such account.'))).toMatchObject({ outcome: 'handled' })
    expect(await twice(payout('payout.paid', 'po_2', null))).toMatchObject({ reason: 'stale' })
    expect(await failures()).toHaveLength(2)
    expect(await t.db.selectFrom('tutor_payouts').select(['processor_payout_id', 'status']).where('user_id', '=', tutor.user.id).orderBy('processor_payout_id').execute()).toEqual([
      { processor_payout_id: 'po_1', status: 'failed' },
      { processor_payout_id: 'po_2', status: 'failed' },
    ])
    expect(await twice(event('payout.paid', { id: 'po_3', object: 'payout', amount: 1 }, { account: 'acct_unknown' }))).toMatchObject({ reason: 'unknown_account' })
  })

  it('setup_intent.succeeded: the booking waiting on that card setup (3-D Secure finished later) is scheduled and committed, once', async () => {
    const { bookingId, student } = await storedBooking(t, 3, counter)
    const setup = `seti_events_${Date.now()}_${++counter}`
    await t.db
      .insertInto('payments')
      .values({
        booking_id: bookingId,
        user_id: student.user.id,
        processor_payment_intent_id: null,
        processor_payment_method_id: 'pm_card_threeDSecure2Required',
        setup_intent_id: setup,
        status: 'requires_action',
        amount_pence: 3300,
        captured_pence: 0,
        refunded_pence: 0,
        client_secret: null,
        redirect_url: null,
        authorize_at: null,
        capture_at: null,
        last_error: null,
      })
      .execute()
    const confirmed = (id: string) => event('setup_intent.succeeded', { id, object: 'setup_intent', status: 'succeeded', payment_method: 'pm_card_threeDSecure2Required' })
    expect(await twice(confirmed('seti_unknown'))).toEqual({ received: true, outcome: 'ignored', reason: 'unknown_payment' })
    expect(await twice(confirmed(setup))).toMatchObject({ outcome: 'handled' })
    expect(await bookingState(bookingId)).toBe(5)
    const row = await t.db.selectFrom('payments').selectAll().where('setup_intent_id', '=', setup).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ status: 'scheduled', authorize_at: expect.any(Date) })
    expect(await timeline(bookingId)).toContain('payment_scheduled')
    // Told again by another event (the return page's refresh got there first, say): nothing moves.
    expect(await twice(confirmed(setup))).toEqual({ received: true, outcome: 'ignored', reason: 'stale' })
  })
})
