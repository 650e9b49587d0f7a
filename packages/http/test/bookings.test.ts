import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SAMPLES, testDatabaseKinds } from '@tutoring/adapters/testing'
import { AUTHORIZE_LEAD_DAYS, expireHolds } from '@tutoring/domain/booking'
import { runDuePayments } from '@tutoring/domain/booking-payments'
import { fakeClock } from '@tutoring/testkit'
import { createTestContext, type TestContext } from './support/harness'
import { upload } from './support/uploads'

type Problem = { status: number; code: string; errors?: Record<string, string[]> }
type One<T> = { data: T }
type List<T> = { data: T[]; meta: { total: number } }
type Booking = {
  id: number
  state: number
  state_name: string
  lesson: { id: number; state: number; start: string; finish: string; suggested_start: string | null; lesson_type: number; subject: { title: string }; children: Array<{ id: number }>; experience_rating: number | null }
  tutor: { id: number }
  student: { id: number }
  meeting: { join_url: string } | null
  notes: { booking: string | null }
  receipt: { lesson_price: string; service_fee: string; total: string; discount_amount: string; refunded: string; payment: { status: string } | null }
  timeline: Array<{ kind: string; data: Record<string, unknown> }>
  calendar_events: Array<{ ics: string }>
}
type Session = { token: string; user: { id: number }; email: string }

const HOUR = 3_600_000
const DAY = 24 * HOUR

describe.each(testDatabaseKinds())('bookings on %s', (kind) => {
  let t: TestContext
  const clock = fakeClock(new Date())
  let tutor: Session
  let teachId = 0
  let levelId = 0
  let base = new Date()

  beforeAll(async () => {
    // A fixed hour on the grid, so every test books its own free hour from here.
    base = new Date(Math.ceil(Date.now() / HOUR) * HOUR)
    clock.set(base)
    t = await createTestContext(kind, {}, { clock })
    tutor = await t.bookableTutor()
    const subjects = await t.db.selectFrom('subjects').select(['id', 'title']).execute()
    const levels = await t.db.selectFrom('subject_levels').select(['id', 'title']).execute()
    levelId = levels.find((l) => l.title === 'GCSE')!.id
    const teach = await t.request<One<{ id: number }>>('POST', '/api/v1/teaches', {
      token: tutor.token,
      body: { subject_id: subjects.find((s) => s.title === 'Mathematics')!.id, subject_level_ids: [levelId], hourly_rate: '25.00' },
    })
    expect(teach.status).toBe(201)
    teachId = teach.body.data.id
    // Open all day, every day, without buffers: each test picks its own hours.
    for (const day of ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY']) {
      const entry = await t.request('POST', '/api/v1/day-availabilities', {
        token: tutor.token,
        body: { day, slots: [{ from: '00:00', to: '24:00' }], lesson_types: ['online', 'tutors_home', 'students_home'], buffer_minutes: 0 },
      })
      expect(entry.status, entry.text).toBe(201)
    }
  })
  afterAll(() => t.close())

  const usedHours = new Set<number>()
  /**
   * A new one-hour slot of the tutor's, from `daysAhead` days on; with `roomAround`, the hours
   * either side stay free too, so back-to-back bookings around it have room. A slot asked for
   * within the authorisation lead (6 days) lies within it, so paying it authorises at once, as
   * the tests that cancel or capture a payment expect, rather than only scheduling it.
   */
  const nextSlot = (daysAhead = 2, { roomAround = false } = {}) => {
    let hour = daysAhead * 24 + 1
    const taken = (h: number) => (roomAround ? [h - 1, h, h + 1] : [h])
    // A lesson lies within one day's window, so none starts at 23:00 London time.
    const londonHour = (h: number) => Number(new Intl.DateTimeFormat('en-GB', { hour: '2-digit', hourCycle: 'h23', timeZone: 'Europe/London' }).format(new Date(base.getTime() + h * HOUR)))
    while (taken(hour).some((h) => usedHours.has(h)) || londonHour(hour) === 23) hour += 1
    if (daysAhead < AUTHORIZE_LEAD_DAYS && hour >= AUTHORIZE_LEAD_DAYS * 24) throw new Error(`no free hour from day ${daysAhead} within the authorisation lead`)
    taken(hour).forEach((h) => usedHours.add(h))
    const start = new Date(base.getTime() + hour * HOUR)
    return { start: start.toISOString(), finish: new Date(start.getTime() + HOUR).toISOString() }
  }
  const bookingBody = (times = nextSlot(), extra: Record<string, unknown> = {}) => ({ teach_id: teachId, subject_level_id: levelId, lesson_type: 3, ...times, ...extra })
  const book = async (who: Session, body: Record<string, unknown> = bookingBody(), headers: Record<string, string> = {}) =>
    t.request<One<Booking>>('POST', '/api/bookings', { token: who.token, body, headers })
  const booked = async (who: Session, body?: Record<string, unknown>) => {
    const res = await book(who, body)
    expect(res.status, res.text).toBe(201)
    return res.body.data
  }
  const pay = (who: Session, bookingId: number, extra: Record<string, unknown> = {}) =>
    t.request<One<{ status: string; client_secret: string | null; redirectURL: string | null; payment_id: number; booking_state: number }>>('POST', '/api/payments/pay', {
      token: who.token,
      body: { booking_id: bookingId, payment_method: 'pm_card_visa', ...extra },
    })
  const detail = (who: { token?: string }, id: number, query = '') => t.request<One<Booking>>('GET', `/api/bookings/${id}${query}`, { token: who.token })
  const bookingDeps = () => t.services.bookings

  describe('creating', () => {
    it('books a free slot: lesson ACTIVE, booking AWAITING_PAYMENT with its hold and the price in pence', async () => {
      const student = await t.register('student')
      const res = await book(student)
      expect(res.status, res.text).toBe(201)
      const b = res.body.data
      expect(b).toMatchObject({
        state: 3,
        state_name: 'AWAITING_PAYMENT',
        lesson: { state: 1, lesson_type: 3, subject: { title: 'Mathematics' } },
        tutor: { id: tutor.user.id },
        student: { id: student.user.id },
        receipt: { lesson_price: '25.00', service_fee: '2.50', total: '27.50', discount_amount: '0.00', payment: null },
        timeline: [{ kind: 'booked' }],
      })
      expect(b.meeting?.join_url).toMatch(/^https:\/\/meet\.jit\.si\/tutoring-/)
      expect(b.calendar_events[0]!.ics).toContain('BEGIN:VEVENT')
      const row = await t.db.selectFrom('bookings').selectAll().where('id', '=', b.id).executeTakeFirstOrThrow()
      expect(row).toMatchObject({ total_pence: 2750, lesson_price_pence: 2500, service_fee_pence: 250, state: 3 })
      expect(row.hold_expires_at!.getTime()).toBe(clock.now().getTime() + 15 * 60_000)
    })

    it("answers as the booking's detail does, the tutor's public face included and the timeline's money as strings", async () => {
      const own = await t.bookableTutor()
      const { teachId: ownTeach, levelId: gcse } = await t.openOnlineTeach(own, '30.00')
      const profiles = await t.request<List<{ id: number }>>('GET', '/api/v1/profiles', { token: own.token })
      const bio = await t.request('PUT', `/api/v1/profiles/${profiles.body.data[0]!.id}`, { token: own.token, body: { bio: 'I teach maths.' } })
      expect(bio.status, bio.text).toBe(200)
      const picture = await upload(t, `/api/v1/users/${own.user.id}/profile/image`, SAMPLES.png, { token: own.token, name: 'me.png' })
      expect(picture.status, picture.text).toBe(200)
      const student = await t.register('student')
      const created = await booked(student, { teach_id: ownTeach, subject_level_id: gcse, lesson_type: 3, ...nextSlot() })
      const shown = (await detail(student, created.id)).body.data
      expect(created).toEqual(shown)
      expect(created.tutor).toEqual({
        id: own.user.id,
        username: expect.any(String),
        firstname: 'Test',
        lastname: expect.stringMatching(/^tutor \d+$/),
        profile_picture_url: `http://api.test/api/resources/profile-image/${own.user.id}`,
        bio: 'I teach maths.',
        overall_rating: null,
        review_count: 0,
        hours_taught: 0,
      })
      expect(created.timeline).toEqual([expect.objectContaining({ kind: 'booked', data: { total: '33.00' } })])
    })

    it("answers as the booking's detail does: in person with an address, for a parent's children at a level", async () => {
      const parent = await t.register('parent')
      const child = async (firstname: string) => {
        const res = await t.request<One<{ id: number }>>('POST', '/api/v1/children', { token: parent.token, body: { firstname, lastname: 'P' } })
        expect(res.status, res.text).toBe(201)
        return res.body.data.id
      }
      const [first, second] = [await child('Ada'), await child('Bea')]
      // A tutor of its own, teaching at home, so the lessons of the other tests' tutor stay theirs alone.
      const own = await t.bookableTutor()
      const subject = await t.db.selectFrom('subjects').select('id').where('title', '=', 'Mathematics').executeTakeFirstOrThrow()
      const teach = await t.request<One<{ id: number }>>('POST', '/api/v1/teaches', { token: own.token, body: { subject_id: subject.id, subject_level_ids: [levelId], hourly_rate: '30.00' } })
      expect(teach.status, teach.text).toBe(201)
      for (const day of ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY']) {
        const entry = await t.request('POST', '/api/v1/day-availabilities', {
          token: own.token,
          body: { day, slots: [{ from: '00:00', to: '24:00' }], lesson_types: ['tutors_home'], buffer_minutes: 0 },
        })
        expect(entry.status, entry.text).toBe(201)
      }
      const address = { line1: '1 Example Street', city: 'London', postcode: 'N1 9GU' }
      const times = nextSlot()
      // The children named out of order: the detail lists them by id.
      const home = await booked(parent, { teach_id: teach.body.data.id, subject_level_id: levelId, lesson_type: 1, ...times, address, child_ids: [second, first] })
      expect(home.lesson.children.map((c) => c.id)).toEqual([first, second])
      expect((await t.db.selectFrom('lessons').select('address').where('id', '=', home.lesson.id).executeTakeFirstOrThrow()).address).toMatchObject(address)
      expect(home).toEqual((await detail(parent, home.id)).body.data)
    })

    it('checks validation, then the window, then the slot', async () => {
      const student = await t.register('student')
      const taken = await booked(await t.register('student'))
      const far = nextSlot(20)
      const bad = await book(student, bookingBody(far, { subject_level_id: 999_999 }))
      expect([bad.status, (bad.body as unknown as Problem).code]).toEqual([422, 'validation_failed'])
      const window = await book(student, bookingBody(far))
      expect([window.status, (window.body as unknown as Problem).code]).toEqual([422, 'booking_window_exceeded'])
      const past = await book(student, bookingBody({ start: new Date(clock.now().getTime() - 2 * HOUR).toISOString(), finish: new Date(clock.now().getTime() - HOUR).toISOString() }))
      expect((past.body as unknown as Problem).code).toBe('booking_window_exceeded')
      const clash = await book(student, bookingBody({ start: taken.lesson.start, finish: taken.lesson.finish }))
      expect([clash.status, (clash.body as unknown as Problem).code]).toEqual([409, 'slot_unavailable'])
      const offGrid = nextSlot()
      const shifted = (iso: string) => new Date(new Date(iso).getTime() + 10 * 60_000).toISOString()
      const notOffered = await book(student, bookingBody({ start: shifted(offGrid.start), finish: shifted(offGrid.finish) }))
      expect([notOffered.status, (notOffered.body as unknown as Problem).code]).toEqual([409, 'slot_unavailable'])
      const unknown = await book(student, { ...bookingBody(), surprise: true })
      expect(unknown.status).toBe(422)
    })

    it("needs an address at the student's home, and a parent's own children", async () => {
      const student = await t.register('student')
      const home = await book(student, bookingBody(nextSlot(), { lesson_type: 2 }))
      expect(home.status).toBe(422)
      expect((home.body as unknown as Problem).errors).toHaveProperty('address')
      const parent = await t.register('parent')
      const other = await t.register('parent')
      const child = await t.request<One<{ id: number }>>('POST', '/api/v1/children', { token: parent.token, body: { firstname: 'Ada', lastname: 'L' } })
      expect(child.status, child.text).toBe(201)
      const theirs = await book(other, bookingBody(nextSlot(), { child_ids: [child.body.data.id] }))
      expect((theirs.body as unknown as Problem).errors).toHaveProperty(['child_ids.0'])
      const mine = await book(parent, bookingBody(nextSlot(), { child_ids: [child.body.data.id] }))
      expect(mine.status, mine.text).toBe(201)
      expect(mine.body.data.lesson.children.map((c) => c.id)).toEqual([child.body.data.id])
      const tutorTries = await book(tutor)
      expect(tutorTries.status).toBe(403)
    })

    it('refuses a fourth unpaid booking while three are held', async () => {
      const student = await t.register('student')
      for (let i = 0; i < 3; i++) await booked(student)
      const fourth = await book(student)
      expect([fourth.status, (fourth.body as unknown as Problem).code]).toEqual([422, 'too_many_pending_bookings'])
    })

    it('replays an Idempotency-Key with the same body and creates nothing new', async () => {
      const student = await t.register('student')
      const body = bookingBody()
      const first = await book(student, body, { 'idempotency-key': 'key-1' })
      const again = await book(student, body, { 'idempotency-key': 'key-1' })
      expect(first.status).toBe(201)
      expect(again.status).toBe(201)
      expect(again.headers.get('idempotent-replayed')).toBe('true')
      expect(again.body.data.id).toBe(first.body.data.id)
      const count = await t.db.selectFrom('bookings').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', student.user.id).executeTakeFirstOrThrow()
      expect(Number(count.n)).toBe(1)
      const other = await book(student, bookingBody(), { 'idempotency-key': 'key-1' })
      expect([other.status, (other.body as unknown as Problem).code]).toEqual([422, 'idempotency_key_reused'])
      // A first request still running: the same key and body wait for it.
      const pending = bookingBody()
      const hash = createHash('sha256').update('POST /api/bookings\n').update(JSON.stringify(pending)).digest('hex')
      await t.db.insertInto('idempotency_keys').values({ user_id: student.user.id, key: 'key-2', request_hash: hash, created_at: clock.now() }).execute()
      const running = await book(student, pending, { 'idempotency-key': 'key-2' })
      expect([running.status, (running.body as unknown as Problem).code]).toEqual([409, 'idempotency_key_in_flight'])
      // One unfinished for minutes died with its process: the repeat takes the key over.
      await t.db.updateTable('idempotency_keys').set({ created_at: new Date(clock.now().getTime() - 10 * 60_000) }).where('key', '=', 'key-2').execute()
      expect((await book(student, pending, { 'idempotency-key': 'key-2' })).status).toBe(201)
      // Keys are per user: another student's key-1 is theirs alone.
      const otherStudent = await t.register('student')
      expect((await book(otherStudent, bookingBody(), { 'idempotency-key': 'key-1' })).status).toBe(201)
    })

    it('replays a payment with the same Idempotency-Key without paying twice', async () => {
      const student = await t.register('student')
      const b = await booked(student)
      const headers = { 'idempotency-key': 'pay-1' }
      const body = { booking_id: b.id, payment_method: 'pm_card_visa' }
      const first = await t.request<One<{ payment_id: number }>>('POST', '/api/payments/pay', { token: student.token, body, headers })
      const second = await t.request<One<{ payment_id: number }>>('POST', '/api/payments/pay', { token: student.token, body, headers })
      expect([first.status, second.status]).toEqual([200, 200])
      expect(second.body.data.payment_id).toBe(first.body.data.payment_id)
      const rows = await t.db.selectFrom('payments').select('id').where('booking_id', '=', b.id).execute()
      expect(rows).toHaveLength(1)
    })

    it('lets exactly one of 50 simultaneous bookings of one slot through; back-to-back lessons both succeed', async () => {
      const students = await Promise.all(Array.from({ length: 50 }, () => t.register('student')))
      const times = nextSlot(2, { roomAround: true })
      const answers = await Promise.all(students.map((s) => book(s, bookingBody(times))))
      const statuses = answers.map((a) => a.status).sort()
      expect(statuses.filter((s) => s === 201)).toHaveLength(1)
      expect(statuses.filter((s) => s === 409)).toHaveLength(49)
      const start = new Date(times.finish)
      const next = { start: start.toISOString(), finish: new Date(start.getTime() + HOUR).toISOString() }
      const previous = { start: new Date(new Date(times.start).getTime() - HOUR).toISOString(), finish: times.start }
      const [a, b] = await Promise.all([book(students[1]!, bookingBody(next)), book(students[2]!, bookingBody(previous))])
      expect([a.status, b.status]).toEqual([201, 201])
    })
  })

  describe('parents', () => {
    it("lets a parent book for their child, see, pay and cancel it, and keeps it from other parents", async () => {
      const parent = await t.register('parent')
      const otherParent = await t.register('parent')
      const child = await t.request<One<{ id: number }>>('POST', '/api/v1/children', { token: parent.token, body: { firstname: 'Kit', lastname: 'P' } })
      const b = await booked(parent, bookingBody(nextSlot(), { child_ids: [child.body.data.id] }))
      expect((await detail(parent, b.id)).status).toBe(200)
      expect((await detail(otherParent, b.id)).status).toBe(404)
      expect((await t.request<List<Booking>>('GET', '/api/bookings/self', { token: parent.token })).body.data.map((x) => x.id)).toEqual([b.id])
      expect((await pay(parent, b.id)).status).toBe(200)
      expect((await t.request('PUT', `/api/bookings/${b.id}/cancel`, { token: otherParent.token })).status).toBe(404)
      const cancelled = await t.request<One<Booking>>('PUT', `/api/bookings/${b.id}/cancel`, { token: parent.token })
      expect(cancelled.body.data.state_name).toBe('REFUNDED')
    })
  })

  describe('seeing', () => {
    it('shows a booking to its booker, tutor and staff, to signed and secret links, and to nobody else', async () => {
      const student = await t.register('student')
      const b = await booked(student)
      const staff = await t.internalUser()
      const stranger = await t.register('student')
      expect((await detail(student, b.id)).status).toBe(200)
      expect((await detail(tutor, b.id)).status).toBe(200)
      expect((await detail(staff, b.id)).status).toBe(200)
      expect((await detail(stranger, b.id)).status).toBe(404)
      expect((await detail({}, b.id)).status).toBe(401)
      const secret = t.infra.secretBox.seal({ userId: student.user.id, bookingId: b.id }, new Date(clock.now().getTime() + HOUR))
      expect((await detail({}, b.id, `?secret=${secret}`)).status).toBe(200)
      const strangerSecret = t.infra.secretBox.seal({ userId: stranger.user.id, bookingId: b.id }, new Date(clock.now().getTime() + HOUR))
      expect((await detail({}, b.id, `?secret=${strangerSecret}`)).status).toBe(404)
      const signed = t.infra.urlSigner.sign(`/api/bookings/${b.id}?uid=${tutor.user.id}`, new Date(clock.now().getTime() + HOUR))
      expect((await t.request('GET', signed)).status).toBe(200)
      // Another first digit, whatever the signature starts with (it starts with 0 one hour in sixteen).
      const tampered = signed.replace(/signature=(.)/, (_, digit: string) => `signature=${digit === '0' ? '1' : '0'}`)
      expect(tampered).not.toBe(signed)
      expect((await t.request('GET', tampered)).status).toBe(401)

      const mine = await t.request<List<Booking>>('GET', '/api/bookings/self', { token: student.token })
      expect(mine.body.data.map((x) => x.id)).toEqual([b.id])
      const theirs = await t.request<List<Booking>>('GET', '/api/bookings?per_page=100', { token: tutor.token })
      expect(theirs.body.data.map((x) => x.id)).toContain(b.id)
      expect((await t.request<List<Booking>>('GET', '/api/bookings', { token: stranger.token })).body.meta.total).toBe(0)
      expect((await t.request<List<Booking>>('GET', '/api/bookings?per_page=0', { token: stranger.token })).status).toBe(422)

      const noted = await t.request<One<Booking>>('PUT', `/api/bookings/${b.id}`, { token: student.token, body: { note: 'Chapter 3 please' } })
      expect(noted.body.data.notes.booking).toBe('Chapter 3 please')
      expect((await t.request('PUT', `/api/bookings/${b.id}`, { token: tutor.token, body: { note: 'x' } })).status).toBe(403)
    })
  })

  describe('listing', () => {
    it("gives each booking on a page exactly as its own detail gives it, read together", async () => {
      const first = await t.register('student')
      const second = await t.register('student')
      const paid = await booked(first)
      expect((await pay(first, paid.id)).status).toBe(200)
      const other = await booked(second)
      await t.request('PUT', `/api/bookings/${other.id}`, { token: second.token, body: { note: 'Bring past papers' } })
      const staff = await t.internalUser()
      const page = await t.request<List<Booking>>('GET', '/api/bookings?per_page=100', { token: staff.token })
      expect(page.status).toBe(200)
      for (const id of [paid.id, other.id]) {
        const item = page.body.data.find((x) => x.id === id)
        expect(item).toEqual((await detail(staff, id)).body.data)
      }
    })
  })

  describe('paying', () => {
    it('authorises with manual capture, and captures once after the lesson even with two workers', async () => {
      const student = await t.register('student')
      const b = await booked(student)
      const paid = await pay(student, b.id)
      expect(paid.status, paid.text).toBe(200)
      expect(paid.body.data).toMatchObject({ status: 'requires_capture', booking_state: 5, redirectURL: null })
      expect(paid.body.data.client_secret).toMatch(/_secret_/)
      const again = await pay(student, b.id)
      expect([again.status, (again.body as unknown as Problem).code]).toEqual([409, 'invalid_state_transition'])
      const anonymous = await t.request<One<{ status: string; client_secret: string | null }>>('GET', `/api/payments/${paid.body.data.payment_id}/status`)
      expect(anonymous.body.data).toMatchObject({ status: 'requires_capture', client_secret: null })
      const owner = await t.request<One<{ client_secret: string | null }>>('GET', `/api/payments/${paid.body.data.payment_id}/status`, { token: student.token })
      expect(owner.body.data.client_secret).toBe(paid.body.data.client_secret)

      const processor = t.infra.processor
      let captures = 0
      const counting = { ...processor, capturePaymentIntent: (id: string, input: { amountPence?: number; idempotencyKey: string }) => ((captures += 1), processor.capturePaymentIntent(id, input)) }
      const deps = { ...bookingDeps(), processor: counting }
      clock.set(new Date(new Date(b.lesson.finish).getTime() + 60_000))
      const reports = await Promise.all([runDuePayments(deps), runDuePayments(deps)])
      clock.set(base)
      expect(reports.reduce((n, r) => n + r.captured, 0)).toBeGreaterThanOrEqual(1)
      const after = await detail(student, b.id)
      expect(after.body.data.state_name).toBe('PAYED')
      const payment = await t.db.selectFrom('payments').selectAll().where('booking_id', '=', b.id).executeTakeFirstOrThrow()
      expect(payment).toMatchObject({ status: 'succeeded', captured_pence: 2750 })
      const capturedOfThis = after.body.data.timeline.filter((e) => e.kind === 'captured')
      expect(capturedOfThis).toHaveLength(1)
      expect(captures).toBe(reports.reduce((n, r) => n + r.captured, 0))
    })

    it('answers 402 payment_failed for a declined card and leaves the booking payable; 3-D Secure gives a redirect', async () => {
      const student = await t.register('student')
      const b = await booked(student)
      const declined = await pay(student, b.id, { payment_method: 'pm_card_chargeDeclined' })
      expect([declined.status, (declined.body as unknown as Problem).code]).toEqual([402, 'payment_failed'])
      const action = await pay(student, b.id, { payment_method: 'pm_card_threeDSecure2Required' })
      expect(action.body.data).toMatchObject({ status: 'requires_action', booking_state: 3 })
      expect(action.body.data.redirectURL).toMatch(/payment_intent=/)
      const other = await t.register('student')
      expect((await pay(other, b.id)).status).toBe(404)
      expect((await pay(tutor, b.id)).status).toBe(403)
    })

    it('schedules the authorisation of a lesson more than 6 days out and authorises it when due', async () => {
      const student = await t.register('student')
      const b = await booked(student, bookingBody(nextSlot(10)))
      const refused = await pay(student, b.id, { payment_method: 'pm_card_chargeDeclined' })
      expect(refused.status).toBe(422)
      expect((refused.body as unknown as Problem).errors).toHaveProperty('payment_method')
      const paid = await pay(student, b.id)
      // The card is set up now: the client confirms it with the SetupIntent's secret.
      expect(paid.body.data).toMatchObject({ status: 'scheduled', client_secret: expect.stringMatching(/^seti_.+_secret_/), redirectURL: null, booking_state: 5 })
      const row = await t.db.selectFrom('payments').selectAll().where('id', '=', paid.body.data.payment_id).executeTakeFirstOrThrow()
      expect(row.authorize_at!.getTime()).toBe(new Date(b.lesson.start).getTime() - 6 * DAY)
      expect(row.processor_payment_method_id).toMatch(/^pm_/)
      expect((await t.db.selectFrom('users').select('processor_customer_id').where('id', '=', student.user.id).executeTakeFirstOrThrow()).processor_customer_id).toMatch(/^cus_/)
      clock.set(row.authorize_at!)
      const report = await runDuePayments(bookingDeps())
      clock.set(base)
      const seen = await t.db.selectFrom('payments').selectAll().where('booking_id', '=', b.id).execute()
      expect(report.authorized, JSON.stringify({ report, seen, now: row.authorize_at })).toBeGreaterThanOrEqual(1)
      const after = await t.db.selectFrom('payments').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow()
      expect(after.status).toBe('requires_capture')
    })

    it('lists and checks coupon expiry by the service clock, not the database clock', async () => {
      const student = await t.register('student')
      // Live by the database's clock, an hour past its expiry by the service's.
      const uid = `CLOCK${Date.now()}`
      await t.db.insertInto('coupons').values({ uid, percent_off_bp: 1000, amount_off_pence: null, expires_at: new Date(Date.now() + HOUR), max_redemptions: null, max_per_user: null }).execute()
      clock.set(new Date(Date.now() + 2 * HOUR))
      try {
        const list = await t.request<List<{ uid: string }>>('GET', `/api/coupons?per_page=100`, { token: student.token })
        expect(list.status).toBe(200)
        expect(list.body.data.map((c) => c.uid)).not.toContain(uid)
        expect(list.body.data.map((c) => c.uid)).toContain('WELCOME10')
        const check = await t.request<Problem>('GET', `/api/coupons/${uid}/validate?amount=27.50`, { token: student.token })
        expect([check.status, check.body.code]).toEqual([422, 'coupon_invalid'])
      } finally {
        clock.set(base)
      }
    })

    it('applies a coupon when booking and lists and checks coupons', async () => {
      const student = await t.register('student')
      const list = await t.request<List<{ uid: string }>>('GET', '/api/coupons', { token: student.token })
      expect(list.body.data.map((c) => c.uid)).toContain('WELCOME10')
      const check = await t.request<One<{ discount_amount: string }>>('GET', '/api/coupons/WELCOME10/validate?amount=27.50', { token: student.token })
      expect(check.body.data.discount_amount).toBe('2.75')
      const unknown = await t.request<Problem>('GET', '/api/coupons/NOPE/validate', { token: student.token })
      expect([unknown.status, unknown.body.code]).toEqual([422, 'coupon_invalid'])
      const b = await booked(student, bookingBody(nextSlot(), { coupon: 'WELCOME10' }))
      expect(b.receipt).toMatchObject({ discount_amount: '2.75', total: '24.75' })
      const twice = await book(student, bookingBody(nextSlot(), { coupon: 'WELCOME10' }))
      expect([twice.status, (twice.body as unknown as Problem).code]).toEqual([422, 'coupon_invalid'])

      const atPay = await t.register('student')
      const plain = await booked(atPay)
      const bad = await pay(atPay, plain.id, { coupon: 'NOPE' })
      expect([bad.status, (bad.body as unknown as Problem).code]).toEqual([422, 'coupon_invalid'])
      expect((await pay(atPay, plain.id, { coupon: 'WELCOME10' })).status).toBe(200)
      expect((await detail(atPay, plain.id)).body.data.receipt).toMatchObject({ discount_amount: '2.75', total: '24.75' })
      const payment = await t.db.selectFrom('payments').select('amount_pence').where('booking_id', '=', plain.id).executeTakeFirstOrThrow()
      expect(payment.amount_pence).toBe(2475)
    })
  })

  describe('holds', () => {
    it('expires an unpaid hold: the lesson is cancelled and the slot free again', async () => {
      const student = await t.register('student')
      const times = nextSlot()
      const b = await booked(student, bookingBody(times))
      clock.advance(16 * 60_000)
      const { expired } = await expireHolds(bookingDeps())
      expect(expired).toBeGreaterThanOrEqual(1)
      const after = await detail(student, b.id)
      expect([after.body.data.state_name, after.body.data.state, after.body.data.receipt.refunded, after.body.data.lesson.state]).toEqual(['REFUNDED', 0, '0.00', 0])
      const retaken = await book(await t.register('student'), bookingBody(times))
      expect(retaken.status).toBe(201)
      clock.advance(-16 * 60_000)
    })
  })

  describe('cancelling', () => {
    it('refunds in full a day or more ahead, in part later, and emails both parties', async () => {
      const student = await t.register('student')
      const early = await booked(student)
      await pay(student, early.id)
      const res = await t.request<One<Booking>>('PUT', `/api/bookings/${early.id}/cancel`, { token: student.token })
      expect(res.status, res.text).toBe(200)
      expect(res.body.data).toMatchObject({ state_name: 'REFUNDED', receipt: { refunded: '27.50' }, lesson: { state: 0 } })
      const again = await t.request<Problem>('PUT', `/api/bookings/${early.id}/cancel`, { token: student.token })
      expect([again.status, again.body.code]).toEqual([409, 'invalid_state_transition'])

      const late = await booked(student, bookingBody(nextSlot(0)))
      await pay(student, late.id)
      const partial = await t.request<One<Booking>>('PUT', `/api/v1/bookings/${late.id}/cancel`, { token: student.token })
      expect(partial.body.data).toMatchObject({ state_name: 'PARTIAL_REFUNDED', receipt: { refunded: '13.75' } })

      const byTutor = await booked(student, bookingBody(nextSlot(0)))
      await pay(student, byTutor.id)
      const full = await t.request<One<{ state: number }>>('PUT', `/api/lessons/${byTutor.lesson.id}/cancel`, { token: tutor.token })
      expect(full.body.data.state).toBe(0)
      expect((await detail(student, byTutor.id)).body.data.state_name).toBe('REFUNDED')

      const unpaid = await booked(student)
      const justCancelled = await t.request<One<Booking>>('PUT', `/api/bookings/${unpaid.id}/cancel`, { token: student.token })
      expect(justCancelled.body.data).toMatchObject({ state_name: 'REFUNDED', state: 0, receipt: { refunded: '0.00' }, lesson: { state: 0 } })
      expect((await t.request('PUT', `/api/bookings/${unpaid.id}/cancel`, { token: (await t.register('student')).token })).status).toBe(404)

      const emails = await t.outbox({ kind: 'email' })
      const cancelled = emails.filter((e) => e.topic === 'lesson_cancelled')
      expect(cancelled.map((e) => (e.payload as { to: string }).to)).toEqual(expect.arrayContaining([student.email, tutor.email]))
      await t.infra.deliverOutbox(500)
      const partialPayment = await t.db.selectFrom('payments').selectAll().where('booking_id', '=', late.id).executeTakeFirstOrThrow()
      expect(partialPayment).toMatchObject({ status: 'succeeded', captured_pence: 1375 })
      const voided = await t.db.selectFrom('payments').selectAll().where('booking_id', '=', early.id).executeTakeFirstOrThrow()
      expect(voided.status).toBe('canceled')
    })
  })

  describe('processor outages', () => {
    it('keeps a cancellation whose processor call fails, and completes the call on a later delivery', async () => {
      await t.infra.deliverOutbox(1000)
      const student = await t.register('student')
      const b = await booked(student)
      // Authorised now (not scheduled), so the cancellation has a processor call to make.
      expect((await pay(student, b.id)).body.data.status).toBe('requires_capture')
      const processor = t.infra.processor as { cancelPaymentIntent: typeof t.infra.processor.cancelPaymentIntent }
      const working = processor.cancelPaymentIntent
      processor.cancelPaymentIntent = async () => {
        throw new Error('processor unreachable')
      }
      const cancelled = await t.request<One<Booking>>('PUT', `/api/bookings/${b.id}/cancel`, { token: student.token })
      expect(cancelled.body.data.state_name).toBe('REFUNDED')
      const failed = await t.infra.deliverOutbox(1000)
      expect(failed.failed).toBeGreaterThanOrEqual(1)
      const payment = () => t.db.selectFrom('payments').selectAll().where('booking_id', '=', b.id).executeTakeFirstOrThrow()
      expect((await payment()).status).toBe('requires_capture')
      processor.cancelPaymentIntent = working
      clock.advance(HOUR)
      const retried = await t.infra.deliverOutbox(1000)
      clock.set(base)
      expect(retried.failed).toBe(0)
      expect((await payment()).status).toBe('canceled')
    })
  })

  describe('rescheduling', () => {
    it('proposes, emails signed Accept and Decline links, and approves through the confirmation page', async () => {
      const student = await t.register('student')
      const b = await booked(student, bookingBody(nextSlot(5)))
      await pay(student, b.id)
      const lessonId = b.lesson.id
      const soon = await booked(student, bookingBody(nextSlot(1)))
      const short = await t.request<Problem>('PUT', `/api/lessons/${soon.lesson.id}/edit`, { token: tutor.token, body: { suggested_start: nextSlot(6).start, suggested_finish: nextSlot(6).finish } })
      expect([short.status, short.body.code]).toEqual([422, 'reschedule_notice_too_short'])
      const times = nextSlot(6)
      const proposed = await t.request<One<{ state: number; suggested_start: string }>>('PUT', `/api/lessons/${lessonId}/edit`, {
        token: tutor.token,
        body: { suggested_start: times.start, suggested_finish: times.finish },
      })
      expect(proposed.status, proposed.text).toBe(200)
      expect(proposed.body.data.state).toBe(2)
      expect((await t.request<Problem>('PUT', `/api/lessons/${lessonId}/approve`, { token: tutor.token })).status).toBe(403)
      const mail = (await t.outbox({ kind: 'email' })).filter((e) => e.topic === 'lesson_reschedule').pop()!
      const data = (mail.payload as { to: string; data: { acceptUrl: string; declineUrl: string } })
      expect(data.to).toBe(student.email)
      const accept = new URL(data.data.acceptUrl)
      const page = await t.request('GET', `${accept.pathname}${accept.search}`)
      expect(page.status).toBe(200)
      expect(page.text).toContain('<form method="post">')
      expect((await detail(student, b.id)).body.data.lesson.state).toBe(2)
      const done = await t.request('POST', `${accept.pathname}${accept.search}`)
      expect(done.status, done.text).toBe(200)
      const after = await detail(student, b.id)
      expect(after.body.data.lesson).toMatchObject({ state: 1, start: times.start, suggested_start: null })
      const notAgain = await t.request<Problem>('PUT', `/api/lessons/${lessonId}/approve`, { token: student.token })
      expect([notAgain.status, notAgain.body.code]).toEqual([409, 'invalid_state_transition'])
      expect((await t.outbox({ kind: 'email' })).filter((e) => e.topic === 'lesson_booked')).not.toHaveLength(0)
    })

    it('a declined proposal cancels the lesson with a full refund', async () => {
      const student = await t.register('student')
      const b = await booked(student, bookingBody(nextSlot(5)))
      await pay(student, b.id)
      const times = nextSlot(6)
      expect((await t.request('PUT', `/api/lessons/${b.lesson.id}/edit`, { token: student.token, body: { suggested_start: times.start, suggested_finish: times.finish } })).status).toBe(200)
      const declined = await t.request<One<{ state: number }>>('PUT', `/api/lessons/${b.lesson.id}/decline`, { token: tutor.token })
      expect(declined.body.data.state).toBe(0)
      expect((await detail(student, b.id)).body.data.state_name).toBe('REFUNDED')
    })
  })

  describe('rating', () => {
    it('takes one rating from the student after the finish', async () => {
      const student = await t.register('student')
      const b = await booked(student, bookingBody(nextSlot(0)))
      const early = await t.request<Problem>('PUT', `/api/v1/lessons/${b.lesson.id}`, { token: student.token, body: { experience_rating: 5 } })
      expect([early.status, early.body.code]).toEqual([422, 'lesson_not_finished'])
      clock.advance(2 * DAY)
      const rated = await t.request<One<{ experience_rating: number }>>('PUT', `/api/v1/lessons/${b.lesson.id}`, { token: student.token, body: { experience_rating: 5 } })
      const tutorRates = await t.request('PUT', `/api/v1/lessons/${b.lesson.id}`, { token: tutor.token, body: { experience_rating: 1 } })
      const again = await t.request<Problem & { detail: string }>('PUT', `/api/v1/lessons/${b.lesson.id}`, { token: student.token, body: { experience_rating: 4 } })
      clock.advance(-2 * DAY)
      expect(rated.body.data.experience_rating).toBe(5)
      expect(tutorRates.status).toBe(403)
      expect([again.status, again.body.code, again.body.detail]).toEqual([409, 'invalid_state_transition', 'Cannot rate this lesson: it is already rated.'])
    })
  })
})
