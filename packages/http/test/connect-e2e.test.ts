import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startStripeStandIn, testDatabaseKinds, type StripeStandIn } from '@tutoring/adapters/testing'
import { cancelUnauthenticatedLessons, releaseWaitingTransfers, runDuePayments } from '@tutoring/domain/booking-payments'
import { startServer } from '../src/server'
import { fakeClock } from '@tutoring/testkit'
import { createTestContext, type TestContext } from './support/harness'
import { httpCall, type HttpCallOptions } from './support/http-call'

const HOUR = 3_600_000
const DAY = 24 * HOUR
const WEBHOOK_SECRET = 'whsec_connect_e2e'

type One<T> = { data: T }
type Booking = {
  id: number
  state_name: string
  lesson: { id: number }
  receipt: { refunded: string; payment: { id: number; status: string; dispute: { status: string; reason: string | null; amount: string } | null } | null }
}
type SeenTransfer = { amount: number; reversed: number; group: string | null; source: string | null }

/**
 * Tutors are paid, through a real listening server, on the real `stripe` SDK against the
 * local stand-in and on the offline processor: a lesson's charge names the tutor's connected
 * account, capture moves their share less the platform's fee, a late cancel keeps the
 * tutor's share in proportion; a tutor who could not be paid yet gets one transfer per
 * captured lesson once their account is enabled, and a refund takes it back.
 */
describe.each(testDatabaseKinds().flatMap((kind) => (['stand-in', 'offline'] as const).map((processor) => [kind, processor] as const)))(
  'tutors paid on %s through the %s processor',
  (kind, processor) => {
    let t: TestContext
    let api: StripeStandIn | undefined
    let server: Awaited<ReturnType<typeof startServer>>
    const clock = fakeClock(new Date(Math.ceil(Date.now() / HOUR) * HOUR))

    beforeAll(async () => {
      api = processor === 'stand-in' ? await startStripeStandIn() : undefined
      const env: Record<string, string> = { STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, ...(api ? { STRIPE_SECRET_KEY: api.secretKey, STRIPE_API_BASE: api.url } : {}) }
      t = await createTestContext(kind, env, { clock })
      server = await startServer(t.infra, 0)
    })
    afterAll(async () => {
      await server?.stop()
      await t?.close()
      await api?.close()
    })

    const call = <T>(method: string, path: string, options: HttpCallOptions = {}) => httpCall<T>(server.url, method, path, options)
    let people = 0
    const register = async (role: string) => {
      const name = `${role}${++people}`
      const res = await call<One<{ token: string; user: { id: number } }>>('POST', '/api/auth/register', {
        json: { email: `${name}@connect.example.com`, password: 'a long enough password', firstname: name, lastname: 'Connect', role, country: 'GB' },
      })
      expect(res.status, res.text).toBe(201)
      return res.body.data
    }

    /** A tutor teaching GCSE maths at £30 an hour, any time, online. */
    async function tutorWithTeach() {
      const tutor = await register('tutor')
      await t.passVerifications(tutor.user.id)
      const maths = (await t.db.selectFrom('subjects').select('id').where('title', '=', 'Mathematics').executeTakeFirstOrThrow()).id
      const gcse = (await t.db.selectFrom('subject_levels').select('id').where('title', '=', 'GCSE').executeTakeFirstOrThrow()).id
      const teach = await call<One<{ id: number }>>('POST', '/api/v1/teaches', { token: tutor.token, json: { subject_id: maths, subject_level_ids: [gcse], hourly_rate: '30.00' } })
      expect(teach.status, teach.text).toBe(201)
      for (const day of ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY']) {
        const entry = await call('POST', '/api/v1/day-availabilities', { token: tutor.token, json: { day, slots: [{ from: '00:00', to: '24:00' }], lesson_types: ['online'], buffer_minutes: 0 } })
        expect(entry.status, entry.text).toBe(201)
      }
      return { ...tutor, teachId: teach.body.data.id, levelId: gcse }
    }

    /** Staff link a bank account of the tutor; answers the connected account's processor id. */
    async function linkBankAccount(tutor: { token: string; user: { id: number } }) {
      const staff = await t.internalUser()
      const added = await call<One<{ id: number }>>('POST', '/api/bank-accounts', { token: tutor.token, json: { account_holder_name: 'Tutor Connect', sort_code: '108800', account_number: '00012345' } })
      expect(added.status, added.text).toBe(201)
      const linked = await call('POST', '/api/bank-accounts/link', { token: staff.token, json: { bank_account_id: added.body.data.id } })
      expect(linked.status, linked.text).toBe(200)
      const row = await t.db.selectFrom('bank_accounts').select('processor_account_id').where('id', '=', added.body.data.id).executeTakeFirstOrThrow()
      return row.processor_account_id!
    }

    /** The stand-in's account finishes onboarding and Stripe says so by webhook; offline, linking enabled it already. */
    async function enablePayouts(accountId: string, eventId?: string) {
      if (!api) return
      // The stand-in signs with the real time, which the receiver's tolerance reads on the service's clock.
      clock.set(new Date())
      const sent = await api.sendEvent({ url: `${server.url}/api/v1/payments/webhooks/accounts`, secret: WEBHOOK_SECRET }, 'account.updated', api.enablePayouts(accountId), { account: accountId, eventId })
      expect(sent.status, sent.body).toBe(200)
    }

    async function transfersTo(accountId: string): Promise<SeenTransfer[]> {
      if (api) {
        return [...api.objects.values()]
          .filter((o) => o.object === 'transfer' && o.destination === accountId)
          .map((o) => ({ amount: Number(o.amount), reversed: Number(o.amount_reversed), group: o.transfer_group as string | null, source: o.source_transaction as string | null }))
      }
      const rows = await t.db.selectFrom('offline_transfers').selectAll().where('account_id', '=', accountId).orderBy('created_at').execute()
      return rows.map((r) => ({ amount: r.amount_pence, reversed: r.reversed_pence, group: r.transfer_group, source: r.source_charge_id }))
    }

    async function bookAndPay(student: { token: string }, tutor: { teachId: number; levelId: number }, start: Date, method = 'pm_card_visa', expected = 'requires_capture') {
      const booked = await call<One<Booking>>('POST', '/api/bookings', {
        token: student.token,
        json: { teach_id: tutor.teachId, subject_level_id: tutor.levelId, lesson_type: 3, start: start.toISOString(), finish: new Date(start.getTime() + HOUR).toISOString() },
      })
      expect(booked.status, booked.text).toBe(201)
      const paid = await call<One<{ status: string; client_secret: string | null; redirectURL: string | null }>>('POST', '/api/payments/pay', {
        token: student.token,
        json: { booking_id: booked.body.data.id, payment_method: method },
      })
      expect(paid.status, paid.text).toBe(200)
      expect(paid.body.data.status).toBe(expected)
      return { ...booked.body.data, paid: paid.body.data }
    }
    const dayAt = (days: number, hour: number) => {
      const d = new Date(clock.now().getTime() + days * DAY)
      d.setUTCHours(hour, 0, 0, 0)
      return d
    }
    /** The outbox stamps rows with the database's time and the worker reads the service's clock: never behind the real one here. */
    const deliver = () => {
      if (clock.now().getTime() < Date.now() + 1000) clock.set(new Date(Date.now() + 1000))
      return t.infra.deliverOutbox(100)
    }
    const bookingOf = async (id: number, token: string) => (await call<One<Booking>>('GET', `/api/bookings/${id}`, { token })).body.data

    it("names an enabled tutor's account on the charge; capture pays their share less the fee; a late cancel keeps their share in proportion", async () => {
      const tutor = await tutorWithTeach()
      const accountId = await linkBankAccount(tutor)
      await enablePayouts(accountId)
      const student = await register('student')

      const lesson = await bookAndPay(student, tutor, dayAt(2, 10))
      const payment = await t.db.selectFrom('payments').selectAll().where('booking_id', '=', lesson.id).executeTakeFirstOrThrow()
      expect(payment).toMatchObject({ destination_account_id: accountId, application_fee_pence: 300, transfer_group: `booking-${lesson.id}` })
      if (api) {
        expect(api.seen(/POST \/v1\/payment_intents$/).at(-1)!.form).toMatchObject({
          'transfer_data[destination]': accountId,
          application_fee_amount: '300',
          transfer_group: `booking-${lesson.id}`,
          capture_method: 'manual',
        })
      }
      expect(await transfersTo(accountId)).toEqual([])

      // After the lesson, capture moves £30 of the £33 to the tutor; the platform keeps its £3.
      clock.set(new Date(dayAt(2, 11).getTime() + 5 * 60_000))
      expect((await runDuePayments(t.services.bookings)).captured).toBe(1)
      expect(await transfersTo(accountId)).toEqual([expect.objectContaining({ amount: 3000, reversed: 0, group: `booking-${lesson.id}` })])

      // Cancelled three hours before the start: half is refunded, half kept, and the tutor
      // receives half their share (£15), not the kept £16.50 less the whole fee.
      const soon = new Date(Math.ceil((clock.now().getTime() + 3 * HOUR) / HOUR) * HOUR)
      const late = await bookAndPay(student, tutor, soon)
      const cancelled = await call<One<Booking>>('PUT', `/api/bookings/${late.id}/cancel`, { token: student.token })
      expect(cancelled.body.data).toMatchObject({ state_name: 'PARTIAL_REFUNDED', receipt: { refunded: '16.50' } })
      expect((await deliver()).failed).toBe(0)
      expect((await transfersTo(accountId)).map((x) => x.amount).sort()).toEqual([1500, 3000])

      // Staff cancel the delivered lesson: the customer gets all £33 back, the tutor's £30 transfer is reversed with it.
      const staff = await t.internalUser()
      const refunded = await call<One<Booking>>('PUT', `/api/bookings/${lesson.id}/cancel`, { token: staff.token })
      expect(refunded.body.data).toMatchObject({ state_name: 'REFUNDED', receipt: { refunded: '33.00' } })
      expect((await deliver()).failed).toBe(0)
      expect((await transfersTo(accountId)).find((x) => x.group === `booking-${lesson.id}`)).toMatchObject({ amount: 3000, reversed: 3000 })
      if (api) expect(api.seen(/POST \/v1\/refunds$/).at(-1)!.form).toMatchObject({ amount: '3300', reverse_transfer: 'true', refund_application_fee: 'true' })

      if (api) {
        // The cardholder disputes the first charge: the booking shows it and staff are told.
        const charge = String(api.objects.get(payment.processor_payment_intent_id!)!.latest_charge)
        const dispute = api.dispute(charge)
        const target = { url: `${server.url}/api/v1/payments/webhooks/accounts`, secret: WEBHOOK_SECRET }
        clock.set(new Date())
        expect((await api.sendEvent(target, 'charge.dispute.created', dispute)).status).toBe(200)
        expect((await bookingOf(lesson.id, student.token)).receipt.payment!.dispute).toEqual({ status: 'needs_response', reason: 'fraudulent', amount: '33.00', opened_at: expect.any(String) })
        expect((await t.outbox({ kind: 'email', topic: 'payment_disputed' })).map((e) => (e.payload as { to: string }).to)).toEqual([t.infra.config.INTERNAL_MAILBOX])
        await api.sendEvent(target, 'charge.dispute.closed', api.closeDispute(String(dispute.id), 'won'))
        expect((await bookingOf(lesson.id, student.token)).receipt.payment!.dispute).toMatchObject({ status: 'won' })
      }
    })

    it('holds the shares of a tutor who cannot be paid yet, pays one transfer per captured lesson once enabled, and reverses one refunded', async () => {
      clock.set(new Date(Math.ceil(Date.now() / HOUR) * HOUR))
      const tutor = await tutorWithTeach()
      // With the stand-in the connected account exists but is not onboarded; offline there is none yet.
      const pendingAccount = api ? await linkBankAccount(tutor) : null
      const student = await register('student')
      const lessons = [await bookAndPay(student, tutor, dayAt(3, 9)), await bookAndPay(student, tutor, dayAt(3, 11)), await bookAndPay(student, tutor, dayAt(3, 13))]
      for (const lesson of lessons) {
        const payment = await t.db.selectFrom('payments').selectAll().where('booking_id', '=', lesson.id).executeTakeFirstOrThrow()
        expect(payment).toMatchObject({ destination_account_id: null, application_fee_pence: 300, transfer_group: `booking-${lesson.id}` })
      }
      if (api) expect(api.seen(/POST \/v1\/payment_intents$/).slice(-3).map((r) => r.form['transfer_data[destination]'])).toEqual([undefined, undefined, undefined])

      clock.set(new Date(dayAt(3, 14).getTime() + 5 * 60_000))
      expect((await runDuePayments(t.services.bookings)).captured).toBe(3)
      expect(await releaseWaitingTransfers(t.services.bookings)).toEqual({ queued: 0 })
      const waiting = await t.db.selectFrom('tutor_transfers').select('status').where('tutor_id', '=', tutor.user.id).execute()
      expect(waiting.map((w) => w.status)).toEqual(['waiting', 'waiting', 'waiting'])

      clock.set(new Date())
      const accountId = pendingAccount ?? (await linkBankAccount(tutor))
      if (api) {
        expect(await transfersTo(accountId)).toEqual([])
        await enablePayouts(accountId, 'evt_enabled_once')
        await enablePayouts(accountId, 'evt_enabled_once')
        await enablePayouts(accountId)
      } else {
        expect((await releaseWaitingTransfers(t.services.bookings)).queued).toBe(3)
      }
      expect(await releaseWaitingTransfers(t.services.bookings)).toEqual({ queued: 0 })
      expect((await deliver()).failed).toBe(0)
      expect((await deliver()).delivered).toBe(0)

      const paid = await transfersTo(accountId)
      expect(paid.map((x) => x.amount)).toEqual([3000, 3000, 3000])
      expect(paid.map((x) => x.group).sort()).toEqual(lessons.map((l) => `booking-${l.id}`).sort())
      expect(paid.every((x) => x.source !== null)).toBe(true)

      // Staff cancel one of them: the customer is refunded in full and the tutor's transfer reversed.
      const staff = await t.internalUser()
      const refunded = await call<One<Booking>>('PUT', `/api/bookings/${lessons[1]!.id}/cancel`, { token: staff.token })
      expect(refunded.body.data).toMatchObject({ state_name: 'REFUNDED', receipt: { refunded: '33.00' } })
      expect((await deliver()).failed).toBe(0)
      const after = await transfersTo(accountId)
      const reversedOne = after.find((x) => x.group === `booking-${lessons[1]!.id}`)!
      expect(reversedOne).toMatchObject({ amount: 3000, reversed: 3000 })
      expect(after.filter((x) => x.reversed === 0)).toHaveLength(2)
    })

    it('sets up the card of a lesson more than 6 days out now; asks the booker when the bank wants them later, and cancels the lesson left unconfirmed at its start', async () => {
      clock.set(new Date(Math.ceil(Date.now() / HOUR) * HOUR))
      // The lessons' day is fixed once: the clock moves (to real time, too) during the test.
      const lessonDay = dayAt(10, 0)
      const tenDaysAt = (hour: number) => new Date(lessonDay.getTime() + hour * HOUR)
      const tutor = await tutorWithTeach()
      const student = await register('student')
      const email = `${'student'}${people}@connect.example.com`
      const [confirmed, ignored] = [
        await bookAndPay(student, tutor, tenDaysAt(9), 'pm_card_authenticationRequired', 'requires_action'),
        await bookAndPay(student, tutor, tenDaysAt(12), 'pm_card_authenticationRequired', 'requires_action'),
      ]
      // The card's setup needs the customer: the bookings are on hold until the bank's check passes (CONTRACT §15).
      expect((await bookingOf(confirmed.id, student.token)).state_name).toBe('AWAITING_PAYMENT')
      for (const booked of [confirmed, ignored]) {
        const { setup_intent_id } = await t.db.selectFrom('payments').select('setup_intent_id').where('booking_id', '=', booked.id).executeTakeFirstOrThrow()
        if (api) api.authenticate(setup_intent_id!)
        else await t.db.updateTable('offline_setup_intents').set({ status: 'succeeded' }).where('id', '=', setup_intent_id!).execute()
        if (booked !== confirmed) expect((await fetch(`${server.url}/api/payments/return?booking_id=${booked.id}`)).status).toBe(200)
      }
      // The answer carries the SetupIntent's secret, so the client confirms the card (3-D Secure) now.
      expect(confirmed.paid.client_secret).toMatch(/^seti_.+_secret_/)
      expect(confirmed.paid.redirectURL).toMatch(/setup_intent|seti_/)
      // Back from the bank's check of the card, the customer lands on the outcome page of that booking's payment.
      const back = await fetch(`${server.url}/api/payments/return?booking_id=${confirmed.id}&setup_intent=seti_x`)
      expect([back.status, await back.text()]).toEqual([200, expect.stringContaining('Card saved')])
      if (!api) expect(confirmed.paid.redirectURL).toContain(`/api/payments/return?booking_id=${confirmed.id}&setup_intent=seti_`)
      expect((await fetch(`${server.url}/api/payments/return`)).status).toBe(422)

      const authorizeAt = new Date(tenDaysAt(9).getTime() - 6 * DAY)
      clock.set(new Date(authorizeAt.getTime() + 3 * HOUR))
      expect(await runDuePayments(t.services.bookings)).toMatchObject({ authorized: 0, failed: 2 })
      const asked = (await t.outbox({ kind: 'email', topic: 'payment_authentication_required' })).map((m) => m.payload as { to: string; data: { actionUrl: string; paymentId: number } })
      expect(asked.map((m) => m.to)).toEqual([email, email])
      const payments = await t.db.selectFrom('payments').selectAll().where('booking_id', 'in', [confirmed.id, ignored.id]).orderBy('id').execute()
      expect(asked.map((m) => m.data.actionUrl)).toEqual(payments.map((p) => `${t.infra.config.APP_URL}/api/payments/return?payment_id=${p.id}`))
      for (const p of payments) expect(p).toMatchObject({ status: 'requires_payment_method', processor_payment_intent_id: expect.stringMatching(/^pi_/), client_secret: expect.stringMatching(/^pi_.+_secret_/) })
      // Still booked: the customer has until the start.
      expect((await bookingOf(confirmed.id, student.token)).state_name).toBe('REQUIRES_CAPTURE')

      if (api) {
        // The customer confirms the first on session; the processor says so by webhook.
        const intent = api.authenticate(payments[0]!.processor_payment_intent_id!)
        clock.set(new Date())
        const told = await api.sendEvent({ url: `${server.url}/api/v1/payments/webhooks/accounts`, secret: WEBHOOK_SECRET }, 'payment_intent.amount_capturable_updated', intent)
        expect(told.status, told.body).toBe(200)
        expect((await t.db.selectFrom('payments').select('status').where('id', '=', payments[0]!.id).executeTakeFirstOrThrow()).status).toBe('requires_capture')
      }

      clock.set(new Date(tenDaysAt(12).getTime() + 60_000))
      expect(await cancelUnauthenticatedLessons(t.services.bookings)).toEqual({ cancelled: api ? 1 : 2 })
      expect(await cancelUnauthenticatedLessons(t.services.bookings)).toEqual({ cancelled: 0 })
      const lapsed = await bookingOf(ignored.id, student.token)
      expect(lapsed).toMatchObject({ state_name: 'REFUNDED', receipt: { refunded: '0.00' } })
      expect((await t.db.selectFrom('lessons').select('state').where('id', '=', ignored.lesson.id).executeTakeFirstOrThrow()).state).toBe(0)
      const cancelledEmails = (await t.outbox({ kind: 'email', topic: 'lesson_cancelled' })).filter((m) => (m.payload as { data: { bookingId: number } }).data.bookingId === ignored.id)
      expect(cancelledEmails).toHaveLength(2)
      expect((await deliver()).failed).toBe(0)
      const released = await t.db.selectFrom('payments').select('status').where('id', '=', payments[1]!.id).executeTakeFirstOrThrow()
      expect(released.status).toBe('canceled')
      if (api) {
        clock.set(new Date(tenDaysAt(10).getTime() + 5 * 60_000))
        expect((await runDuePayments(t.services.bookings)).captured).toBe(1)
        expect((await bookingOf(confirmed.id, student.token)).state_name).toBe('PAYED')
      }
    })
  },
)
