import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signStripePayload, testDatabaseKinds } from '@tutoring/adapters/testing'
import { expireHolds } from '@tutoring/domain/booking'
import { releaseWaitingTransfers, runDuePayments } from '@tutoring/domain/booking-payments'
import { clockAhead } from '@tutoring/testkit'
import type { PaymentProcessor } from '@tutoring/domain/payments'
import { createTestContext, type TestContext } from '../support/harness'
import { recordFinding } from '../support/findings'
import { freeHour, type Session, type Teach } from '../support/paid-lessons'

type One<T> = { data: T }
const SECRET = 'whsec_money_concurrency'
type PayAnswer = { status: string; payment_id: number; booking_state: number }

/** The finding class the four races of issue 19 finding 1 report under. */
const ONE_LIVE_PAYMENT = {
  class: 'Money: a paid booking with no live payment, or two',
  tried: 'two pays at once with different cards, a pay racing its DELETE, the bank check of a superseded attempt returning, a reschedule with a stray later attempt',
  held: 'paid exactly while one live payment backs it (rows and processor intents agree); the loser released, never the winner',
}

/**
 * Issue 19 (CONTRACT §15): money holds under concurrency. Each test names the finding of the
 * review it replays; the processor is the offline one, wrapped to count its calls.
 */
describe.each(testDatabaseKinds())('money under concurrency, on %s', (kind) => {
  let t: TestContext
  let teach: Teach
  let tutor: Session
  /** Every processor call, by method name, since the test last cleared it. */
  const calls: string[] = []
  /**
   * A gate the test may put on the next payment intent's answer: the intent is made at the
   * processor, and its answer waits until the test opens the gate (a call in flight).
   */
  const gate = { armed: false, reached: () => {}, open: () => {} }
  /** Bank checks the test has passed: the processor then reports the intent authorised. */
  const checked = new Set<string>()
  const counted = (offline: PaymentProcessor): PaymentProcessor => {
    const wrapped: PaymentProcessor = {
      ...offline,
      async createPaymentIntent(input) {
        const made = await offline.createPaymentIntent(input)
        if (gate.armed) {
          gate.armed = false
          await new Promise<void>((resolve) => {
            gate.open = resolve
            gate.reached()
          })
        }
        return made
      },
      async retrieveSetupIntent(id) {
        const setup = await offline.retrieveSetupIntent(id)
        return checked.has(id) && setup.status === 'requires_action' ? { ...setup, status: 'succeeded', redirectUrl: null } : setup
      },
      async retrievePaymentIntent(id) {
        const intent = await offline.retrievePaymentIntent(id)
        return checked.has(id) && intent.status === 'requires_action' ? { ...intent, status: 'requires_capture', amountCapturablePence: intent.amountPence, redirectUrl: null } : intent
      },
    }
    return new Proxy(wrapped, {
      get(target, name, receiver) {
        const value: unknown = Reflect.get(target, name, receiver)
        if (typeof value !== 'function') return value
        return (...args: unknown[]) => {
          calls.push(String(name))
          return (value as (...a: unknown[]) => unknown).apply(target, args)
        }
      },
    })
  }
  /** Arms the gate; the promise settles once a payment intent waits at it. */
  const armGate = () =>
    new Promise<void>((resolve) => {
      gate.armed = true
      gate.reached = resolve
    })

  type Row = { id: number; status: string; capture_at: Date | null; authorize_at: Date | null; processor_payment_intent_id: string | null }
  const paymentsOf = (bookingId: number) =>
    t.db.selectFrom('payments').select(['id', 'status', 'capture_at', 'authorize_at', 'processor_payment_intent_id']).where('booking_id', '=', bookingId).orderBy('id').execute() as Promise<Row[]>
  const stateOf = async (bookingId: number) => (await t.db.selectFrom('bookings').select('state').where('id', '=', bookingId).executeTakeFirstOrThrow()).state

  /**
   * CONTRACT §15, once the outbox has drained: a paid booking (REQUIRES_CAPTURE 5, PAYED 1)
   * rests on exactly one live payment, and the processor holds it; any other booking on none.
   */
  async function expectBackedOnce(bookingId: number): Promise<{ state: number; live: Row[] }> {
    await t.infra.deliverOutbox()
    const state = Number(await stateOf(bookingId))
    const live: Row[] = []
    for (const p of await paymentsOf(bookingId)) {
      const intent = p.processor_payment_intent_id ? await t.infra.processor.retrievePaymentIntent(p.processor_payment_intent_id) : null
      const holds = intent !== null && (intent.status === 'requires_capture' || intent.status === 'succeeded')
      const rowLive = (p.status === 'requires_capture' && p.capture_at !== null) || p.status === 'succeeded' || p.status === 'scheduled'
      // A row and its intent agree: a live row's intent holds money, a dead row's holds none.
      expect({ id: p.id, holds }).toEqual({ id: p.id, holds: rowLive && p.status !== 'scheduled' })
      if (rowLive) live.push(p)
    }
    expect(live.length, `booking ${bookingId} in state ${state}`).toBe(state === 5 || state === 1 ? 1 : 0)
    return { state, live }
  }

  beforeAll(async () => {
    t = await createTestContext(kind, { STRIPE_WEBHOOK_SECRET: SECRET }, { processor: counted })
    tutor = await t.bookableTutor()
    const opened = await t.openOnlineTeach(tutor, '30.00')
    teach = { id: opened.teachId, levelId: opened.levelId }
  })
  afterAll(() => t.close())

  const book = async (student: Session, days: [number, number]) => {
    const res = await t.request<One<{ id: number }>>('POST', '/api/bookings', {
      token: student.token,
      body: { teach_id: teach.id, subject_level_id: teach.levelId, lesson_type: 3, ...(await freeHour(t, teach, ...days)) },
    })
    expect(res.status, res.text).toBe(201)
    return res.body.data.id
  }
  const pay = (who: Session, bookingId: number, card: string) =>
    t.request<One<PayAnswer>>('POST', '/api/payments/pay', { token: who.token, body: { booking_id: bookingId, payment_method: card } })

  it('checks who pays and the booking state before any processor call (finding 8)', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'Money: the processor called for someone who may not pay',
      tried: "the tutor paying their student's near and far bookings, the student paying a cancelled far booking",
      held: '403 for the tutor and 409 for the cancelled booking, with no processor call at all',
    })
    const student = await t.register('student')
    const far = await book(student, [10, 14])
    const near = await book(student, [2, 5])
    calls.length = 0
    for (const id of [far, near]) {
      const answer = await pay(tutor, id, 'pm_card_visa')
      expect(answer.status, answer.text).toBe(403)
    }
    // Another student, who can see neither booking, is told there is none.
    const stranger = await t.register('student')
    expect((await pay(stranger, far, 'pm_card_visa')).status).toBe(404)
    expect(calls).toEqual([])

    const cancelled = await t.request('PUT', `/api/bookings/${far}/cancel`, { token: student.token })
    expect(cancelled.status, cancelled.text).toBe(200)
    calls.length = 0
    const late = await pay(student, far, 'pm_card_visa')
    expect(late.status, late.text).toBe(409)
    expect(calls).toEqual([])
    finding.figures = { 'refused pays': 4, 'processor calls': calls.length }
  })

  it('leaves one live payment behind a booking paid twice at once (finding 1)', async ({ task }) => {
    const finding = recordFinding(task, ONE_LIVE_PAYMENT)
    const student = await t.register('student')
    let trials = 0
    for (let i = 0; i < 3; i++) {
      const bookingId = await book(student, [2, 5])
      const [visa, mastercard] = await Promise.all([pay(student, bookingId, 'pm_card_visa'), pay(student, bookingId, 'pm_card_mastercard')])
      expect([visa.status, mastercard.status]).not.toContain(500)
      const { state } = await expectBackedOnce(bookingId)
      expect(state).toBe(5)
      trials++
      // One booking at a time counts among the three unpaid: cancel it to book the next.
      expect((await t.request('PUT', `/api/bookings/${bookingId}/cancel`, { token: student.token })).status).toBe(200)
    }
    finding.figures = { 'concurrent pays': trials * 2 }
  })

  it('never pays a booking on an attempt its DELETE released while its processor call was in flight (finding 1)', async ({ task }) => {
    const finding = recordFinding(task, ONE_LIVE_PAYMENT)
    const student = await t.register('student')
    const bookingId = await book(student, [2, 5])
    const waiting = armGate()
    const paying = pay(student, bookingId, 'pm_card_visa')
    await waiting
    const [row] = await paymentsOf(bookingId)
    const released = await t.request<One<{ id: number; status: string }>>('DELETE', `/api/v1/payments/${row!.id}`, { token: student.token })
    expect(released.status, released.text).toBe(200)
    gate.open()
    const paid = await paying
    expect(paid.status, paid.text).toBe(200)
    const { state } = await expectBackedOnce(bookingId)
    // The DELETE came first: the booking is still to pay, and may be paid again.
    expect(state).toBe(3)
    const again = await pay(student, bookingId, 'pm_card_visa')
    expect(again.body.data).toMatchObject({ status: 'requires_capture' })
    expect((await expectBackedOnce(bookingId)).state).toBe(5)
    finding.figures = { 'pays racing a DELETE': 1 }
  })

  it('releases a superseded attempt whose bank check returns while the newer pay is in flight (finding 1)', async ({ task }) => {
    const finding = recordFinding(task, ONE_LIVE_PAYMENT)
    const student = await t.register('student')
    const bookingId = await book(student, [2, 5])
    const first = await pay(student, bookingId, 'pm_card_threeDSecure2Required')
    expect(first.body.data.status).toBe('requires_action')
    const waiting = armGate()
    const second = pay(student, bookingId, 'pm_card_visa')
    await waiting
    const [old] = await paymentsOf(bookingId)
    checked.add(old!.processor_payment_intent_id!)
    const page = await t.request('GET', `/api/payments/return?payment_id=${old!.id}`)
    expect(page.status).toBe(200)
    gate.open()
    expect((await second).body.data).toMatchObject({ status: 'requires_capture' })
    const { state, live } = await expectBackedOnce(bookingId)
    expect(state).toBe(5)
    expect(live.map((p) => p.id)).toEqual([(await second).body.data.payment_id])
    finding.figures = { 'bank checks of superseded attempts': 1 }
  })

  it('moves the payment the booking rests on when a reschedule is approved, not a later stray attempt (finding 1)', async ({ task }) => {
    const finding = recordFinding(task, ONE_LIVE_PAYMENT)
    const student = await t.register('student')
    const bookingId = await book(student, [4, 4.9])
    expect((await pay(student, bookingId, 'pm_card_visa')).body.data.status).toBe('requires_capture')
    const [charged] = await paymentsOf(bookingId)
    const booking = await t.db.selectFrom('bookings').select('user_id').where('id', '=', bookingId).executeTakeFirstOrThrow()
    // A later attempt that never went anywhere (a retry refused before reaching the processor).
    await t.db.insertInto('payments').values({ booking_id: bookingId, user_id: booking.user_id, status: 'requires_payment_method', amount_pence: 100, processor_payment_method_id: 'pm_card_visa' }).execute()
    const lesson = await t.db.selectFrom('lessons').innerJoin('bookings', 'bookings.lesson_id', 'lessons.id').select('lessons.id').where('bookings.id', '=', bookingId).executeTakeFirstOrThrow()
    const times = await freeHour(t, teach, 5, 5.9)
    const proposed = await t.request('PUT', `/api/lessons/${lesson.id}/edit`, { token: student.token, body: { suggested_start: times.start, suggested_finish: times.finish } })
    expect(proposed.status, proposed.text).toBe(200)
    const approved = await t.request('PUT', `/api/lessons/${lesson.id}/approve`, { token: tutor.token })
    expect(approved.status, approved.text).toBe(200)
    const after = (await paymentsOf(bookingId)).find((p) => p.id === charged!.id)
    expect(after).toMatchObject({ status: 'requires_capture', capture_at: new Date(times.finish) })
    expect((await expectBackedOnce(bookingId)).state).toBe(5)
    finding.figures = { 'reschedules with a stray attempt': 1 }
  })

  it('keeps a far booking whose card setup still needs the customer on hold, among the three unpaid (finding 3)', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'Money: a card setup waiting for 3-D Secure commits the booking',
      tried: 'lessons 10-14 days out paid with pm_card_threeDSecure2Required: a fourth booking, the bank check passed, a hold left to lapse',
      held: 'AWAITING_PAYMENT with its hold and counted in the three unpaid; scheduled and REQUIRES_CAPTURE once the bank check passes; a lapsed hold cancels the lesson',
    })
    const student = await t.register('student')
    const ids: number[] = []
    for (let i = 0; i < 3; i++) {
      const id = await book(student, [10, 14])
      const answer = await pay(student, id, 'pm_card_threeDSecure2Required')
      expect(answer.status, answer.text).toBe(200)
      expect(answer.body.data).toMatchObject({ status: 'requires_action', booking_state: 3 })
      ids.push(id)
    }
    const detail = await t.request<One<{ hold_expires_at: string | null; state_name: string }>>('GET', `/api/bookings/${ids[0]}`, { token: student.token })
    expect(detail.body.data).toMatchObject({ state_name: 'AWAITING_PAYMENT', hold_expires_at: expect.any(String) })
    const fourth = await t.request('POST', '/api/bookings', {
      token: student.token,
      body: { teach_id: teach.id, subject_level_id: teach.levelId, lesson_type: 3, ...(await freeHour(t, teach, 10, 14)) },
    })
    expect(fourth.status, fourth.text).not.toBe(201)

    // The bank's check of the first passes: the payment is scheduled and the booking committed.
    const [row] = await t.db.selectFrom('payments').select(['id']).where('booking_id', '=', ids[0]!).execute()
    const setupId = (await t.db.selectFrom('payments').select('setup_intent_id').where('id', '=', row!.id).executeTakeFirstOrThrow()).setup_intent_id
    checked.add(setupId!)
    expect((await t.request('GET', `/api/payments/return?booking_id=${ids[0]}`)).status).toBe(200)
    const committed = await t.request<One<{ hold_expires_at: string | null; state_name: string }>>('GET', `/api/bookings/${ids[0]}`, { token: student.token })
    expect(committed.body.data).toMatchObject({ state_name: 'REQUIRES_CAPTURE', hold_expires_at: null })
    expect((await paymentsOf(ids[0]!))[0]).toMatchObject({ status: 'scheduled', authorize_at: expect.any(Date) })

    // The others lapse like any hold.
    await expireHolds({ ...t.services.bookings, clock: clockAhead(60 * 60_000) })
    for (const id of ids.slice(1)) {
      const lesson = await t.db.selectFrom('lessons').innerJoin('bookings', 'bookings.lesson_id', 'lessons.id').select('lessons.state').where('bookings.id', '=', id).executeTakeFirstOrThrow()
      expect(lesson.state).toBe(0)
      expect((await expectBackedOnce(id)).live).toEqual([])
    }
    finding.figures = { 'bookings paid with a 3-D Secure card': 3 }
  })

  it('pays the tutor the lesson price whatever the coupon: the platform funds it, beyond its fee too (finding 4)', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'Money: a coupon paid by the tutor',
      tried: 'a 20.00-off coupon and a 100 % coupon on 30.00 lessons of a tutor whose account is enabled, captured after the lesson',
      held: "the tutor's account receives 30.00 for each: the charge's part and a transfer of the platform's own for the rest",
    })
    // A tutor of their own whose account is enabled, so the charge names it as destination.
    const paidTutor = await t.bookableTutor()
    const opened = await t.openOnlineTeach(paidTutor, '30.00')
    const own = { id: opened.teachId, levelId: opened.levelId }
    const staff = await t.internalUser()
    const added = await t.request<One<{ id: number }>>('POST', '/api/bank-accounts', { token: paidTutor.token, body: { account_holder_name: 'Tutor Coupon', sort_code: '108800', account_number: '00012345' } })
    expect(added.status, added.text).toBe(201)
    expect((await t.request('POST', '/api/bank-accounts/link', { token: staff.token, body: { bank_account_id: added.body.data.id } })).status).toBe(200)
    const accountId = (await t.db.selectFrom('bank_accounts').select('processor_account_id').where('id', '=', added.body.data.id).executeTakeFirstOrThrow()).processor_account_id!

    const coupons = [`TWENTYOFF${kind}${Date.now()}`, `FREE${kind}${Date.now()}`]
    await t.db.insertInto('coupons').values({ uid: coupons[0]!, percent_off_bp: null, amount_off_pence: 2000, expires_at: null, max_redemptions: 10, max_per_user: 1 }).execute()
    await t.db.insertInto('coupons').values({ uid: coupons[1]!, percent_off_bp: 10000, amount_off_pence: null, expires_at: null, max_redemptions: 10, max_per_user: 1 }).execute()
    const student = await t.register('student')
    let last = 0
    for (const coupon of coupons) {
      const booked = await t.request<One<{ id: number; lesson: { finish: string } }>>('POST', '/api/bookings', {
        token: student.token,
        body: { teach_id: own.id, subject_level_id: own.levelId, lesson_type: 3, ...(await freeHour(t, own, 2, 5)) },
      })
      expect(booked.status, booked.text).toBe(201)
      const paid = await t.request<One<PayAnswer>>('POST', '/api/payments/pay', { token: student.token, body: { booking_id: booked.body.data.id, payment_method: 'pm_card_visa', coupon } })
      expect(paid.status, paid.text).toBe(200)
      last = Math.max(last, new Date(booked.body.data.lesson.finish).getTime())
    }
    // After the lessons: captured, and the tutor's money sent.
    const after = clockAhead(last - Date.now() + 60_000)
    await runDuePayments({ ...t.services.bookings, clock: after })
    await releaseWaitingTransfers({ ...t.services.bookings, clock: after })
    await t.infra.deliverOutbox()
    const received = await t.db.selectFrom('offline_transfers').select(['amount_pence', 'transfer_group']).where('account_id', '=', accountId).execute()
    const byGroup = new Map<string, number>()
    for (const r of received) byGroup.set(r.transfer_group ?? '', (byGroup.get(r.transfer_group ?? '') ?? 0) + r.amount_pence)
    expect([...byGroup.values()]).toEqual([3000, 3000])
    finding.figures = { 'coupon lessons': 2 }
  })

  it('never lets an event naming a connected account, an unknown payment or an oversized refund change a platform payment (finding 5)', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'Money: payment events matched by metadata alone',
      tried: "signed events: payment_intent.succeeded naming a connected account, an unknown intent of 1p or of another customer naming a scheduled row's payment_id, charge.refunded of 999999",
      held: 'ignored, the booking and payment unchanged; an unknown intent adopted only when amount and customer match; refunded never above captured',
    })
    let n = 0
    const send = (type: string, object: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
      const raw = JSON.stringify({ id: `evt_money_${kind}_${Date.now()}_${++n}`, object: 'event', type, data: { object }, ...extra })
      return t.request<One<{ outcome: string; reason: string | null }>>('POST', '/api/v1/payments/webhooks/accounts', { raw, headers: { 'content-type': 'application/json', 'stripe-signature': signStripePayload(raw, SECRET) } })
    }
    const student = await t.register('student')
    // A payment waiting for its bank check: an event naming a connected account does not authorise it.
    const near = await book(student, [2, 5])
    const waiting = await pay(student, near, 'pm_card_threeDSecure2Required')
    const [attempt] = await paymentsOf(near)
    const intent = { id: attempt!.processor_payment_intent_id, object: 'payment_intent', status: 'succeeded', amount: 3300, amount_received: 3300, metadata: { payment_id: String(waiting.body.data.payment_id) } }
    const connected = await send('payment_intent.succeeded', intent, { account: 'acct_someone_else' })
    expect(connected.body.data.outcome).toBe('ignored')
    expect(await stateOf(near)).toBe(3)

    // A far booking's scheduled row: an unknown intent naming it is adopted only on amount and customer.
    const far = await book(student, [10, 14])
    const scheduled = await pay(student, far, 'pm_card_visa')
    expect(scheduled.body.data.status).toBe('scheduled')
    const row = await t.db.selectFrom('payments').select(['id', 'amount_pence']).where('booking_id', '=', far).executeTakeFirstOrThrow()
    const named = { object: 'payment_intent', status: 'succeeded', metadata: { payment_id: String(row.id) } }
    const penny = await send('payment_intent.succeeded', { ...named, id: 'pi_unknown_penny', amount: 1, amount_received: 1, customer: 'cus_x' })
    const stranger = await send('payment_intent.succeeded', { ...named, id: 'pi_unknown_stranger', amount: row.amount_pence, amount_received: row.amount_pence, customer: 'cus_not_theirs' })
    expect([penny.body.data.outcome, stranger.body.data.outcome]).toEqual(['ignored', 'ignored'])
    expect(await stateOf(far)).toBe(5)
    expect(await t.db.selectFrom('payments').select(['status', 'processor_payment_intent_id']).where('id', '=', row.id).executeTakeFirstOrThrow()).toEqual({ status: 'scheduled', processor_payment_intent_id: null })

    // A captured payment refunded 999999: never more than was captured.
    const paidId = await book(student, [2, 5])
    await pay(student, paidId, 'pm_card_visa')
    const [held] = (await paymentsOf(paidId)).filter((p) => p.status === 'requires_capture')
    await send('payment_intent.succeeded', { id: held!.processor_payment_intent_id, object: 'payment_intent', status: 'succeeded', amount: 3300, amount_received: 3300 })
    await send('charge.refunded', { id: 'ch_x', object: 'charge', payment_intent: held!.processor_payment_intent_id, amount_refunded: 999_999, amount_captured: 3300 })
    const money = await t.db.selectFrom('payments').select(['captured_pence', 'refunded_pence']).where('id', '=', held!.id).executeTakeFirstOrThrow()
    expect(money.refunded_pence).toBeLessThanOrEqual(money.captured_pence)
    finding.figures = { 'forged events': 4 }
  })

  it('answers a booking cancelled with nothing charged REFUNDED with nothing refunded, and retries THAT payment on PUT (CONTRACT §17)', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'Money: what a client written against SPEC.md relies on',
      tried: 'an unpaid hold cancelled, a hold lapsed, a saved card never authorised cancelled; a declined payment retried by PUT /api/v1/payments/{id}',
      held: 'REFUNDED (0) with refunded "0.00" and the lesson CANCELLED; the retry answers the same id, authorised',
    })
    type Detail = { state: number; state_name: string; receipt: { refunded: string }; lesson: { state: number } }
    const student = await t.register('student')
    const unpaid = await book(student, [2, 5])
    const cancelled = await t.request<One<Detail>>('PUT', `/api/bookings/${unpaid}/cancel`, { token: student.token })
    expect(cancelled.body.data).toMatchObject({ state: 0, state_name: 'REFUNDED', receipt: { refunded: '0.00' }, lesson: { state: 0 } })
    const lapsing = await book(student, [2, 5])
    await expireHolds({ ...t.services.bookings, clock: clockAhead(60 * 60_000) })
    const far = await book(student, [10, 14])
    expect((await pay(student, far, 'pm_card_visa')).body.data.status).toBe('scheduled')
    expect((await t.request('PUT', `/api/bookings/${far}/cancel`, { token: student.token })).status).toBe(200)
    for (const id of [lapsing, far]) {
      const detail = await t.request<One<Detail>>('GET', `/api/bookings/${id}`, { token: student.token })
      expect(detail.body.data).toMatchObject({ state: 0, receipt: { refunded: '0.00' }, lesson: { state: 0 } })
    }

    const declined = await book(student, [2, 5])
    const refused = await pay(student, declined, 'pm_card_chargeDeclined')
    expect(refused.status, refused.text).toBe(402)
    const [row] = await paymentsOf(declined)
    const retried = await t.request<One<{ id: number; status: string }>>('PUT', `/api/v1/payments/${row!.id}`, { token: student.token, body: { payment_method: 'pm_card_visa' } })
    expect(retried.status, retried.text).toBe(200)
    expect(retried.body.data).toMatchObject({ id: row!.id, status: 'requires_capture' })
    expect((await expectBackedOnce(declined)).live.map((p) => p.id)).toEqual([row!.id])
    finding.figures = { 'cancelled unpaid': 3, 'retries': 1 }
  })
})
