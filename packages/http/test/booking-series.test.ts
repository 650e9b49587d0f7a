import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { expireHolds } from '@tutoring/domain/booking'
import { runDuePayments } from '@tutoring/domain/booking-payments'
import { fakeClock } from '@tutoring/testkit'
import { createTestContext, type TestContext } from './support/harness'

type Problem = { status: number; code: string; conflicts?: string[]; errors?: Record<string, string[]> }
type One<T> = { data: T }
type SeriesPlace = { id: number; position: number; weeks: number; booking_ids: number[] }
type Booking = { id: number; state_name: string; lesson: { state: number; start: string; finish: string }; receipt: { total: string; refunded: string }; series: SeriesPlace | null }
type Series = { id: number; weeks: number; bookings: Booking[] }
type Session = { token: string; user: { id: number }; email: string }

const HOUR = 3_600_000
const DAY = 24 * HOUR
const WEEK = 7 * DAY
const londonHour = (at: Date) => Number(new Intl.DateTimeFormat('en-GB', { hour: '2-digit', hourCycle: 'h23', timeZone: 'Europe/London' }).format(at))
const londonWall = (at: string) => new Intl.DateTimeFormat('en-GB', { weekday: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'Europe/London' }).format(new Date(at))

describe.each(testDatabaseKinds())('weekly series on %s', (kind) => {
  let t: TestContext
  const clock = fakeClock(new Date())
  let base = new Date()

  beforeAll(async () => {
    base = new Date(Math.ceil(Date.now() / HOUR) * HOUR)
    clock.set(base)
    t = await createTestContext(kind, {}, { clock })
  })
  afterAll(() => t.close())

  /** A tutor of their own for each test, open online all day every day, and a first week `daysAhead` days on. */
  const openTutor = async (daysAhead = 2) => {
    const tutor = await t.bookableTutor()
    const { teachId, levelId } = await t.openOnlineTeach(tutor, '25.00')
    let start = new Date(base.getTime() + daysAhead * DAY)
    // A lesson lies within one day's window, so none starts at 23:00 London time.
    while (londonHour(start) === 23) start = new Date(start.getTime() + HOUR)
    const body = (extra: Record<string, unknown> = {}, at = start) => ({
      teach_id: teachId,
      subject_level_id: levelId,
      lesson_type: 3,
      start: at.toISOString(),
      finish: new Date(at.getTime() + HOUR).toISOString(),
      ...extra,
    })
    return { tutor, start, body }
  }
  const book = (who: Session, body: Record<string, unknown>) => t.request<One<Booking>>('POST', '/api/bookings', { token: who.token, body })
  const series = (who: Session, id: number) => t.request<One<Series>>('GET', `/api/booking-series/${id}`, { token: who.token })
  const cancelSeries = (who: Session, id: number) => t.request<One<Series>>('PUT', `/api/booking-series/${id}/cancel`, { token: who.token })
  const bookingsOf = (userId: number) => t.db.selectFrom('bookings').selectAll().where('user_id', '=', userId).orderBy('id').execute()

  describe('booking', () => {
    it("books the same wall-clock time every week and answers the first week's detail with its series", async () => {
      const { tutor, start, body } = await openTutor()
      const student = await t.register('student')
      const res = await book(student, body({ repeat_weeks: 3 }))
      expect(res.status, res.text).toBe(201)
      const first = res.body.data
      expect(first.lesson.start).toBe(start.toISOString())
      expect(first.series).toMatchObject({ position: 1, weeks: 3 })
      expect(first.series!.booking_ids).toHaveLength(3)
      expect(first.series!.booking_ids[0]).toBe(first.id)

      const weeks = await Promise.all(first.series!.booking_ids.map(async (id) => (await t.request<One<Booking>>('GET', `/api/bookings/${id}`, { token: tutor.token })).body.data))
      expect(weeks.map((w) => w.series?.position)).toEqual([1, 2, 3])
      expect(weeks.map((w) => w.state_name)).toEqual(['AWAITING_PAYMENT', 'AWAITING_PAYMENT', 'AWAITING_PAYMENT'])
      expect(new Set(weeks.map((w) => londonWall(w.lesson.start))).size).toBe(1)
      weeks.forEach((w, i) => expect(Math.abs(new Date(w.lesson.start).getTime() - start.getTime() - i * WEEK)).toBeLessThanOrEqual(HOUR))
      expect(weeks.every((w) => w.receipt.total === '27.50')).toBe(true)
    })

    it("answers a series' first week exactly as that booking's detail does", async () => {
      const { body } = await openTutor()
      const student = await t.register('student')
      const res = await book(student, body({ repeat_weeks: 3 }))
      expect(res.status, res.text).toBe(201)
      expect(res.body.data).toEqual((await t.request<One<Booking>>('GET', `/api/bookings/${res.body.data.id}`, { token: student.token })).body.data)
    })

    it('answers a lone booking with series null, as repeat_weeks defaults to 1', async () => {
      const { body } = await openTutor()
      const res = await book(await t.register('student'), body())
      expect(res.status, res.text).toBe(201)
      expect(res.body.data.series).toBeNull()
      expect((await book(await t.register('student'), body({ repeat_weeks: 1 }, new Date(new Date(body().finish).getTime() + HOUR)))).body.data.series).toBeNull()
    })

    it('refuses repeat_weeks outside 1..12 (422)', async () => {
      const { body } = await openTutor()
      const student = await t.register('student')
      for (const weeks of [0, 13, 2.5]) {
        const res = await book(student, body({ repeat_weeks: weeks }))
        expect([res.status, (res.body as unknown as Problem).code], res.text).toEqual([422, 'validation_failed'])
        expect((res.body as unknown as Problem).errors).toHaveProperty('repeat_weeks')
      }
    })

    it('books all or none: a week not free is a 409 naming its start, and nothing is booked', async () => {
      const { start, body } = await openTutor()
      const other = await t.register('student')
      // Weeks 2 and 3 are taken, by another series.
      expect((await book(other, body({ repeat_weeks: 2 }, new Date(start.getTime() + WEEK)))).status).toBe(201)
      const third = new Date(start.getTime() + 2 * WEEK)
      const student = await t.register('student')
      const seriesBefore = await t.db.selectFrom('booking_series').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
      const res = await book(student, body({ repeat_weeks: 4 }))
      expect(res.status, res.text).toBe(409)
      const problem = res.body as unknown as Problem
      expect(problem.code).toBe('slot_unavailable')
      expect(problem.conflicts).toEqual([new Date(start.getTime() + WEEK).toISOString(), third.toISOString()])
      expect(await bookingsOf(student.user.id)).toEqual([])
      const seriesAfter = await t.db.selectFrom('booking_series').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
      expect(Number(seriesAfter.n)).toBe(Number(seriesBefore.n))
    })

    it('needs only the first week inside the 14-day window', async () => {
      const { body } = await openTutor(13)
      const res = await book(await t.register('student'), body({ repeat_weeks: 3 }))
      expect(res.status, res.text).toBe(201)
      const late = await openTutor(15)
      const refused = await book(await t.register('student'), late.body({ repeat_weeks: 3 }))
      expect([refused.status, (refused.body as unknown as Problem).code]).toEqual([422, 'booking_window_exceeded'])
    })
  })

  describe('reading and cancelling', () => {
    it('shows the series to its booker, its tutor and staff, and to nobody else (404)', async () => {
      const { tutor, body } = await openTutor()
      const student = await t.register('student')
      const first = (await book(student, body({ repeat_weeks: 2 }))).body.data
      const id = first.series!.id
      for (const who of [student, tutor, await t.internalUser()]) {
        const res = await series(who, id)
        expect(res.status, res.text).toBe(200)
        expect(res.body.data).toMatchObject({ id, weeks: 2 })
        expect(res.body.data.bookings.map((b) => b.id)).toEqual(first.series!.booking_ids)
      }
      const stranger = await t.register('student')
      expect((await series(stranger, id)).status).toBe(404)
      expect((await cancelSeries(stranger, id)).status).toBe(404)
      expect((await series(student, 987654321)).status).toBe(404)
      expect((await t.request('GET', `/api/booking-series/${id}`)).status).toBe(401)
    })

    it('cancels every week not yet started, then answers 409 with none left', async () => {
      const { body } = await openTutor()
      const student = await t.register('student')
      const first = (await book(student, body({ repeat_weeks: 3 }))).body.data
      const res = await cancelSeries(student, first.series!.id)
      expect(res.status, res.text).toBe(200)
      expect(res.body.data.bookings.map((b) => [b.lesson.state, b.receipt.refunded])).toEqual([
        [0, '0.00'],
        [0, '0.00'],
        [0, '0.00'],
      ])
      const again = await cancelSeries(student, first.series!.id)
      expect([again.status, (again.body as unknown as Problem).code]).toEqual([409, 'invalid_state_transition'])
    })

    it('leaves a week already started as it is', async () => {
      const { tutor, start, body } = await openTutor()
      const student = await t.register('student')
      const first = (await book(student, body({ repeat_weeks: 2 }))).body.data
      clock.set(new Date(start.getTime() + 10 * 60_000))
      try {
        const res = await cancelSeries(tutor, first.series!.id)
        expect(res.status, res.text).toBe(200)
        expect(res.body.data.bookings.map((b) => b.lesson.state)).toEqual([1, 0])
      } finally {
        clock.set(base)
      }
    })
  })

  describe('holds', () => {
    it('counts an unpaid series as one of the three unpaid bookings', async () => {
      const { start, body } = await openTutor()
      const student = await t.register('student')
      expect((await book(student, body({ repeat_weeks: 4 }))).status).toBe(201)
      expect((await book(student, body({}, new Date(start.getTime() + 2 * HOUR)))).status).toBe(201)
      expect((await book(student, body({}, new Date(start.getTime() + 4 * HOUR)))).status).toBe(201)
      const fourth = await book(student, body({}, new Date(start.getTime() + 6 * HOUR)))
      expect([fourth.status, (fourth.body as unknown as Problem).code]).toEqual([422, 'too_many_pending_bookings'])
    })

    it('lapses as one: every week is cancelled and free again', async () => {
      const { body } = await openTutor()
      const student = await t.register('student')
      const first = (await book(student, body({ repeat_weeks: 3 }))).body.data
      clock.advance(16 * 60_000)
      try {
        await expireHolds(t.services.bookings)
        const after = await series(student, first.series!.id)
        expect(after.body.data.bookings.map((b) => b.lesson.state)).toEqual([0, 0, 0])
        expect((await book(await t.register('student'), body({ repeat_weeks: 3 }))).status).toBe(201)
      } finally {
        clock.set(base)
      }
    })
  })
  describe('paying', () => {
    type PayAnswer = { status: string; client_secret: string | null; payment_id: number; booking_state: number }
    const paySeries = (who: Session, body: Record<string, unknown>) =>
      t.request<One<PayAnswer>>('POST', '/api/payments/pay', { token: who.token, body: { payment_method: 'pm_card_visa', ...body } })
    const paymentsOf = (bookingIds: number[]) =>
      t.db.selectFrom('payments').selectAll().where('booking_id', 'in', bookingIds).orderBy('booking_id').orderBy('id').execute()

    it("sets the card up once and schedules every week's authorisation as a lone far booking's", async () => {
      const { body } = await openTutor(8)
      const student = await t.register('student')
      const first = (await book(student, body({ repeat_weeks: 3 }))).body.data
      const res = await paySeries(student, { booking_series_id: first.series!.id })
      expect(res.status, res.text).toBe(200)
      expect(res.body.data).toMatchObject({ status: 'scheduled', booking_state: 5 })
      expect(res.body.data.client_secret).toEqual(expect.any(String))
      const payments = await paymentsOf(first.series!.booking_ids)
      expect(payments.map((p) => Number(p.booking_id))).toEqual(first.series!.booking_ids)
      expect(payments.map((p) => p.status)).toEqual(['scheduled', 'scheduled', 'scheduled'])
      expect(payments[0]!.processor_payment_method_id).toMatch(/^pm_/)
      expect(new Set(payments.map((p) => p.processor_payment_method_id)).size).toBe(1)
      // One card setup: only the first week's payment carries its secret.
      expect(payments.map((p) => p.client_secret !== null)).toEqual([true, false, false])
      const weeks = (await series(student, first.series!.id)).body.data.bookings
      expect(weeks.map((w) => w.state_name)).toEqual(['REQUIRES_CAPTURE', 'REQUIRES_CAPTURE', 'REQUIRES_CAPTURE'])
      weeks.forEach((w, i) => expect(payments[i]!.authorize_at!.getTime()).toBe(new Date(w.lesson.start).getTime() - 6 * DAY))

      // The last week, on the card saved with the first, is authorised off-session when due, as a lone booking is.
      clock.set(payments[2]!.authorize_at!)
      try {
        const report = await runDuePayments(t.services.bookings)
        expect(report.authorized).toBeGreaterThanOrEqual(1)
      } finally {
        clock.set(base)
      }
      const last = await t.db.selectFrom('payments').selectAll().where('id', '=', payments[2]!.id).executeTakeFirstOrThrow()
      expect(last.status).toBe('requires_capture')
    })

    it("holds the first week's card now when it is near, and schedules the later weeks", async () => {
      const { body } = await openTutor(2)
      const student = await t.register('student')
      const first = (await book(student, body({ repeat_weeks: 3 }))).body.data
      const res = await paySeries(student, { booking_series_id: first.series!.id })
      expect(res.status, res.text).toBe(200)
      expect(res.body.data.status).toBe('requires_capture')
      const payments = await paymentsOf(first.series!.booking_ids)
      expect(payments.map((p) => p.status)).toEqual(['requires_capture', 'scheduled', 'scheduled'])
      const weeks = (await series(student, first.series!.id)).body.data.bookings
      expect(weeks.map((w) => w.state_name)).toEqual(['REQUIRES_CAPTURE', 'REQUIRES_CAPTURE', 'REQUIRES_CAPTURE'])
      // Paying again changes nothing: every week is paid.
      const again = await paySeries(student, { booking_series_id: first.series!.id })
      expect(again.status, again.text).toBe(200)
      expect((await paymentsOf(first.series!.booking_ids)).length).toBe(3)
    })

    it('cancels a paid series week by week under the policy', async () => {
      const { body } = await openTutor(2)
      const student = await t.register('student')
      const first = (await book(student, body({ repeat_weeks: 3 }))).body.data
      expect((await paySeries(student, { booking_series_id: first.series!.id })).status).toBe(200)
      const res = await cancelSeries(student, first.series!.id)
      expect(res.status, res.text).toBe(200)
      // Two days or more ahead, every week is refunded in full (the first week's hold released through the outbox, the others never charged).
      expect(res.body.data.bookings.map((b) => [b.lesson.state, b.state_name])).toEqual([
        [0, 'REFUNDED'],
        [0, 'REFUNDED'],
        [0, 'REFUNDED'],
      ])
    })

    it('lets only the booker pay, hides the series from strangers, and takes one of the two ids', async () => {
      const { tutor, body } = await openTutor(8)
      const student = await t.register('student')
      const first = (await book(student, body({ repeat_weeks: 2 }))).body.data
      expect((await paySeries(await t.register('student'), { booking_series_id: first.series!.id })).status).toBe(404)
      expect((await paySeries(student, { booking_series_id: 987654321 })).status).toBe(404)
      const byTutor = await paySeries(tutor, { booking_series_id: first.series!.id })
      expect([byTutor.status, (byTutor.body as unknown as Problem).code]).toEqual([403, 'forbidden'])
      for (const ids of [{}, { booking_id: first.id, booking_series_id: first.series!.id }]) {
        const res = await paySeries(student, ids)
        expect([res.status, (res.body as unknown as Problem).code], res.text).toEqual([422, 'validation_failed'])
      }
      expect(await paymentsOf(first.series!.booking_ids)).toEqual([])
    })
  })
})
