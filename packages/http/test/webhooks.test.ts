import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Webhook } from 'standardwebhooks'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { deliverWebhooks, WEBHOOK_EVENT_TYPES } from '@tutoring/domain/integrations'
import { countHoursTaught } from '@tutoring/domain/booking'
import { runDuePayments } from '@tutoring/domain/booking-payments'
import { fakeClock } from '@tutoring/testkit'
import { webhookPayloads } from '../src/webhook-payloads'
import { createTestContext, type TestContext } from './support/harness'
import { webhookReceiver, type ReceivedWebhook } from './support/webhook-receiver'

type One<T> = { data: T }
type Endpoint = { id: number; url: string; events: string[]; description: string | null; enabled: boolean; secret: string | null; created_at: string }
type Delivery = { id: number; event_id: string; type: string; status: string; attempts: number; last_status_code: number | null; next_attempt_at: string | null; created_at: string }
type Problem = { code: string; errors?: Record<string, string[]> }
type Session = { token: string; user: { id: number } }

const HOUR = 3_600_000
const DAY = 24 * HOUR

/** The receiver's check, with the receiver's clock reading `now` (the service's fake clock), so the timestamp tolerance holds. */
function verified<T>(secret: string, hit: ReceivedWebhook, now: Date): T {
  vi.useFakeTimers({ toFake: ['Date'], now })
  try {
    return new Webhook(secret).verify(hit.body, hit.headers as Record<string, string>) as T
  } finally {
    vi.useRealTimers()
  }
}

describe.each(testDatabaseKinds())('outbound webhooks on %s', (kind) => {
  let t: TestContext
  const base = new Date(Math.ceil(Date.now() / HOUR) * HOUR)
  const clock = fakeClock(base)
  let tutor: Session
  let teachId = 0
  let levelId = 0
  let hour = 24 * 3
  const work = () => deliverWebhooks({ ...t.services.integrations, payloads: webhookPayloads(t.services) })

  beforeAll(async () => {
    t = await createTestContext(kind, { WEBHOOKS_ALLOW_INSECURE: 'true' }, { clock })
    tutor = await t.bookableTutor()
    ;({ teachId, levelId } = await t.openOnlineTeach(tutor, '20.00'))
  })
  afterAll(() => t.close())

  const createEndpoint = async (who: Session, url: string, events: string[] = ['booking.created']) => {
    const res = await t.request<One<Endpoint>>('POST', '/api/webhook-endpoints', { token: who.token, body: { url, events } })
    expect(res.status, res.text).toBe(201)
    return res.body.data
  }
  const deliveries = async (who: Session, endpointId: number) =>
    (await t.request<One<Delivery[]>>('GET', `/api/webhook-endpoints/${endpointId}/deliveries`, { token: who.token })).body.data
  const book = async (student: Session) => {
    hour += 2
    const start = new Date(base.getTime() + hour * HOUR)
    const res = await t.request<One<{ id: number; state: number }>>('POST', '/api/bookings', {
      token: student.token,
      body: { teach_id: teachId, subject_level_id: levelId, lesson_type: 3, start: start.toISOString(), finish: new Date(start.getTime() + HOUR).toISOString() },
    })
    expect(res.status, res.text).toBe(201)
    return res.body.data
  }

  describe('endpoints', () => {
    it('answers the secret, whsec_ and base64 of at least 24 bytes, on create only', async () => {
      const student = await t.register('student')
      const created = await t.request<One<Endpoint>>('POST', '/api/webhook-endpoints', {
        token: student.token,
        body: { url: 'https://crm.example.com/hooks', events: ['booking.created', 'review.created'], description: 'CRM' },
      })
      expect(created.status, created.text).toBe(201)
      expect(created.body.data).toMatchObject({ url: 'https://crm.example.com/hooks', events: ['booking.created', 'review.created'], description: 'CRM', enabled: true })
      const secret = created.body.data.secret!
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/)
      expect(Buffer.from(secret.slice('whsec_'.length), 'base64').length).toBeGreaterThanOrEqual(24)

      const read = await t.request<One<Endpoint>>('GET', `/api/webhook-endpoints/${created.body.data.id}`, { token: student.token })
      expect(read.status).toBe(200)
      expect(read.body.data.secret).toBeNull()
      const list = await t.request<One<Endpoint[]> & { meta: { total: number } }>('GET', '/api/webhook-endpoints', { token: student.token })
      expect(list.body.data.map((e) => e.secret)).toEqual([null])
      expect(list.body.meta.total).toBe(1)

      const rotated = await t.request<One<Endpoint>>('POST', `/api/webhook-endpoints/${created.body.data.id}/rotate-secret`, { token: student.token })
      expect(rotated.status).toBe(200)
      expect(rotated.body.data.secret).toMatch(/^whsec_/)
      expect(rotated.body.data.secret).not.toBe(secret)
    })

    it("changes and removes the owner's endpoint; someone else's is not found", async () => {
      const owner = await t.register('student')
      const other = await t.register('tutor')
      const endpoint = await createEndpoint(owner, 'https://crm.example.com/a')
      for (const [method, path] of [
        ['GET', ''],
        ['PUT', ''],
        ['DELETE', ''],
        ['POST', '/rotate-secret'],
        ['POST', '/test'],
        ['GET', '/deliveries'],
      ] as const) {
        const res = await t.request<Problem>(method, `/api/webhook-endpoints/${endpoint.id}${path}`, { token: other.token, body: method === 'PUT' ? { enabled: false } : undefined })
        expect(res.status, `${method} ${path}`).toBe(404)
      }
      const changed = await t.request<One<Endpoint>>('PUT', `/api/webhook-endpoints/${endpoint.id}`, {
        token: owner.token,
        body: { events: ['booking.paid'], enabled: false, description: 'paused' },
      })
      expect(changed.status, changed.text).toBe(200)
      expect(changed.body.data).toMatchObject({ url: 'https://crm.example.com/a', events: ['booking.paid'], enabled: false, description: 'paused', secret: null })
      // A PUT naming no field changes nothing and answers the endpoint as it is.
      const unchanged = await t.request<One<Endpoint>>('PUT', `/api/webhook-endpoints/${endpoint.id}`, { token: owner.token, body: {} })
      expect(unchanged.status, unchanged.text).toBe(200)
      expect(unchanged.body.data).toEqual(changed.body.data)
      expect((await t.request('DELETE', `/api/webhook-endpoints/${endpoint.id}`, { token: owner.token })).status).toBe(204)
      expect((await t.request('GET', `/api/webhook-endpoints/${endpoint.id}`, { token: owner.token })).status).toBe(404)
    })

    it('refuses unknown event types and an eleventh endpoint with 422', async () => {
      const owner = await t.register('parent')
      const unknown = await t.request<Problem>('POST', '/api/webhook-endpoints', { token: owner.token, body: { url: 'https://x.example.com/', events: ['booking.created', 'booking.exploded'] } })
      expect(unknown.status).toBe(422)
      expect(unknown.body.code).toBe('validation_failed')
      expect(Object.keys(unknown.body.errors!)).toEqual(['events.1'])
      for (let i = 0; i < 10; i++) await createEndpoint(owner, `https://x.example.com/${i}`)
      const eleventh = await t.request<Problem>('POST', '/api/webhook-endpoints', { token: owner.token, body: { url: 'https://x.example.com/11', events: ['booking.created'] } })
      expect(eleventh.status).toBe(422)
      expect(eleventh.body.errors).toHaveProperty('url')
    })

    it('documents every route, and each event type as an OpenAPI 3.1 webhook', async () => {
      const doc = (await t.request<{ paths: Record<string, Record<string, unknown>>; webhooks: Record<string, { post: { requestBody: unknown } }> }>('GET', '/openapi.json')).body
      expect(Object.keys(doc.paths['/api/webhook-endpoints']!).sort()).toEqual(['get', 'post'])
      expect(Object.keys(doc.paths['/api/webhook-endpoints/{id}']!).sort()).toEqual(['delete', 'get', 'put'])
      for (const path of ['/rotate-secret', '/test', '/deliveries/{delivery_id}/retry']) expect(doc.paths[`/api/webhook-endpoints/{id}${path}`]).toHaveProperty('post')
      expect(doc.paths['/api/webhook-endpoints/{id}/deliveries']).toHaveProperty('get')
      expect(Object.keys(doc.webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort())
      expect(JSON.stringify(doc.webhooks['booking.created']!.post.requestBody)).toContain('#/components/schemas/Booking"')
    })

    it('takes the bodiless POSTs with or without an empty JSON body', async () => {
      const owner = await t.register('student')
      const endpoint = await createEndpoint(owner, 'https://crm.example.com/empty')
      for (const body of [undefined, {}]) {
        expect((await t.request('POST', `/api/webhook-endpoints/${endpoint.id}/test`, { token: owner.token, body })).status).toBe(202)
        expect((await t.request('POST', `/api/webhook-endpoints/${endpoint.id}/rotate-secret`, { token: owner.token, body })).status).toBe(200)
      }
    })

    it('needs a signed-in caller', async () => {
      expect((await t.request('GET', '/api/webhook-endpoints')).status).toBe(401)
    })
  })

  describe('delivery', () => {
    it('POSTs booking.created signed as Standard Webhooks, the booking detail as data, to the booker and the tutor', async () => {
      const receiver = await webhookReceiver()
      try {
        const student = await t.register('student')
        const studentEndpoint = await createEndpoint(student, `${receiver.url}/student`)
        const tutorEndpoint = await createEndpoint(tutor, `${receiver.url}/tutor`)
        const someoneElse = await t.register('student')
        const stranger = await createEndpoint(someoneElse, `${receiver.url}/stranger`)
        const staff = await t.internalUser()
        await createEndpoint(staff, `${receiver.url}/staff`)
        const booking = await book(student)
        await work()
        // Staff endpoints hear of every booking.
        expect(receiver.received.map((r) => r.path).sort()).toEqual(['/staff', '/student', '/tutor'])
        for (const [hit, endpoint] of [
          [receiver.received.find((r) => r.path === '/student')!, studentEndpoint],
          [receiver.received.find((r) => r.path === '/tutor')!, tutorEndpoint],
        ] as const) {
          const payload = verified<{ type: string; timestamp: string; data: { id: number; state: number } }>(endpoint.secret!, hit, clock.now())
          expect(payload.type).toBe('booking.created')
          expect(payload.data).toMatchObject({ id: booking.id, state: booking.state })
          expect(new Date(payload.timestamp).toISOString()).toBe(payload.timestamp)
          expect(hit.headers['webhook-id']).toMatch(/^msg_/)
          expect(hit.headers['webhook-signature']).toMatch(/^v1,/)
          expect(() => verified(stranger.secret!, hit, clock.now())).toThrow('No matching signature found')
        }
        // Both endpoints heard of one event.
        expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1)
        const [log] = await deliveries(student, studentEndpoint.id)
        expect(log).toMatchObject({ type: 'booking.created', status: 'succeeded', attempts: 1, last_status_code: 200, next_attempt_at: null })
        expect(await deliveries(someoneElse, stranger.id)).toEqual([])
      } finally {
        await receiver.close()
      }
    })

    it('tells each party of a lesson\'s life: booked, paid, rescheduled, completed, reviewed, cancelled and refunded', async () => {
      const receiver = await webhookReceiver()
      try {
        const student = await t.register('student')
        const all = await createEndpoint(student, `${receiver.url}/student`, WEBHOOK_EVENT_TYPES.filter((type) => type !== 'webhook.test'))
        const tutorReviews = await createEndpoint(tutor, `${receiver.url}/tutor`, ['review.created', 'lesson.completed'])
        const pay = async (id: number) => expect((await t.request('POST', '/api/payments/pay', { token: student.token, body: { booking_id: id, payment_method: 'pm_card_visa' } })).status).toBe(200)
        const lesson = await book(student)
        await pay(lesson.id)
        const detail = (await t.request<One<{ lesson: { id: number; finish: string } }>>('GET', `/api/bookings/${lesson.id}`, { token: student.token })).body.data
        hour += 2
        const moved = new Date(base.getTime() + hour * HOUR)
        const proposal = { suggested_start: moved.toISOString(), suggested_finish: new Date(moved.getTime() + HOUR).toISOString() }
        expect((await t.request('PUT', `/api/lessons/${detail.lesson.id}/edit`, { token: student.token, body: proposal })).status).toBe(200)
        expect((await t.request('PUT', `/api/lessons/${detail.lesson.id}/approve`, { token: tutor.token })).status).toBe(200)
        const cancelled = await book(student)
        await pay(cancelled.id)
        expect((await t.request('PUT', `/api/bookings/${cancelled.id}/cancel`, { token: student.token })).status).toBe(200)

        clock.set(new Date(moved.getTime() + 2 * HOUR))
        await runDuePayments(t.services.bookings)
        await countHoursTaught(t.services.bookings)
        const review = await t.request<One<{ id: number }>>('POST', `/api/tutors/${tutor.user.id}/review`, { token: student.token, body: { knowledge: 5, communication: 5, punctuality: 4 } })
        expect(review.status, review.text).toBe(201)
        await work()

        const heard = (path: string) =>
          receiver.received
            .filter((r) => r.path === path)
            .map((r) => verified<{ type: string; data: { id: number } }>(path === '/tutor' ? tutorReviews.secret! : all.secret!, r, clock.now()))
        const byStudent = heard('/student')
        expect(byStudent.map((p) => p.type).sort()).toEqual(
          ['booking.created', 'booking.paid', 'lesson.reschedule_proposed', 'lesson.rescheduled', 'booking.created', 'booking.paid', 'booking.cancelled', 'payment.refunded', 'lesson.completed', 'review.created'].sort(),
        )
        const of = (type: string) => byStudent.filter((p) => p.type === type).map((p) => p.data.id)
        expect(of('booking.cancelled')).toEqual([cancelled.id])
        expect(of('payment.refunded')).toEqual([cancelled.id])
        expect(of('lesson.rescheduled')).toEqual([detail.lesson.id])
        expect(of('lesson.completed')).toEqual([detail.lesson.id])
        expect(of('review.created')).toEqual([review.body.data.id])
        // The tutor's other lessons (earlier tests' unpaid ones) may complete too; this student's is among them.
        const byTutor = heard('/tutor')
        expect(byTutor.filter((p) => p.type === 'lesson.completed').map((p) => p.data.id)).toContain(detail.lesson.id)
        expect(byTutor.filter((p) => p.type === 'review.created').map((p) => p.data.id)).toEqual([review.body.data.id])
      } finally {
        clock.set(base)
        await receiver.close()
      }
    })

    it('records the event in the booking\'s transaction: a refused booking leaves none', async () => {
      const student = await t.register('student')
      const endpoint = await createEndpoint(student, 'http://127.0.0.1:9/never')
      const refused = await t.request('POST', '/api/bookings', {
        token: student.token,
        body: { teach_id: teachId, subject_level_id: levelId, lesson_type: 3, start: new Date(base.getTime() + 30 * DAY).toISOString(), finish: new Date(base.getTime() + 30 * DAY + HOUR).toISOString() },
      })
      expect(refused.status).toBe(422)
      expect(await deliveries(student, endpoint.id)).toEqual([])
    })

    it('retries a failing delivery with backoff and the same webhook-id, and logs each attempt', async () => {
      const receiver = await webhookReceiver((res) => {
        res.statusCode = 503
        res.end()
      })
      try {
        const owner = await t.register('student')
        const endpoint = await createEndpoint(owner, receiver.url)
        const queued = await t.request<One<Delivery>>('POST', `/api/webhook-endpoints/${endpoint.id}/test`, { token: owner.token })
        expect(queued.status).toBe(202)
        expect(queued.body.data).toMatchObject({ type: 'webhook.test', status: 'pending', attempts: 0 })
        await work()
        let [log] = await deliveries(owner, endpoint.id)
        expect(log).toMatchObject({ status: 'failing', attempts: 1, last_status_code: 503 })
        const firstRetry = new Date(log!.next_attempt_at!).getTime() - clock.now().getTime()
        expect(firstRetry).toBeGreaterThan(0)

        await work()
        expect(receiver.received).toHaveLength(1) // not due yet
        clock.advance(firstRetry)
        await work()
        ;[log] = await deliveries(owner, endpoint.id)
        expect(log).toMatchObject({ status: 'failing', attempts: 2 })
        expect(new Date(log!.next_attempt_at!).getTime() - clock.now().getTime()).toBeGreaterThan(firstRetry)

        receiver.answerWith((res) => res.end('ok'))
        clock.set(new Date(log!.next_attempt_at!))
        await work()
        ;[log] = await deliveries(owner, endpoint.id)
        expect(log).toMatchObject({ status: 'succeeded', attempts: 3, last_status_code: 200, next_attempt_at: null })
        expect(receiver.received).toHaveLength(3)
        expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([log!.event_id]))
        expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1)
        const payload = verified<{ data: Endpoint }>(endpoint.secret!, receiver.received[2]!, clock.now())
        expect(payload.data).toMatchObject({ id: endpoint.id, secret: null })
      } finally {
        await receiver.close()
      }
    })

    it('retries a delivery by hand, with the same webhook-id', async () => {
      const receiver = await webhookReceiver()
      try {
        const owner = await t.register('student')
        const endpoint = await createEndpoint(owner, receiver.url)
        const queued = await t.request<One<Delivery>>('POST', `/api/webhook-endpoints/${endpoint.id}/test`, { token: owner.token })
        await work()
        const retried = await t.request<One<Delivery>>('POST', `/api/webhook-endpoints/${endpoint.id}/deliveries/${queued.body.data.id}/retry`, { token: owner.token })
        expect(retried.status).toBe(202)
        expect(retried.body.data).toMatchObject({ id: queued.body.data.id, status: 'pending' })
        await work()
        expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([queued.body.data.event_id, queued.body.data.event_id])
        expect((await t.request('POST', `/api/webhook-endpoints/${endpoint.id}/deliveries/999999/retry`, { token: owner.token })).status).toBe(404)
      } finally {
        await receiver.close()
      }
    })

    it('gives a delivery up after 3 days, disables an endpoint failing for 5 days and emails its owner', async () => {
      const receiver = await webhookReceiver((res) => {
        res.statusCode = 500
        res.end()
      })
      try {
        const owner = await t.register('student')
        const endpoint = await createEndpoint(owner, receiver.url)
        await t.request('POST', `/api/webhook-endpoints/${endpoint.id}/test`, { token: owner.token })
        const started = clock.now().getTime()
        await work()
        for (let guard = 0; guard < 50; guard++) {
          const [log] = await deliveries(owner, endpoint.id)
          if (log!.status === 'failed') break
          clock.set(new Date(log!.next_attempt_at!))
          await work()
        }
        const [gaveUp] = await deliveries(owner, endpoint.id)
        expect(gaveUp).toMatchObject({ status: 'failed', next_attempt_at: null })
        expect(clock.now().getTime() - started).toBeGreaterThanOrEqual(3 * DAY)
        expect((await t.request<One<Endpoint>>('GET', `/api/webhook-endpoints/${endpoint.id}`, { token: owner.token })).body.data.enabled).toBe(true)

        clock.set(new Date(started + 5 * DAY + 1000))
        await work()
        expect((await t.request<One<Endpoint>>('GET', `/api/webhook-endpoints/${endpoint.id}`, { token: owner.token })).body.data.enabled).toBe(false)
        const emails = await t.outbox({ topic: 'webhook_endpoint_disabled' })
        expect(emails.filter((e) => (e.payload as { to: string }).to === (owner as Session & { email: string }).email)).toHaveLength(1)
        await work()
        expect(await t.outbox({ topic: 'webhook_endpoint_disabled' })).toHaveLength(emails.length)
      } finally {
        clock.set(base)
        await receiver.close()
      }
    })
  })
})

describe.each(testDatabaseKinds())('webhook endpoint addresses without WEBHOOKS_ALLOW_INSECURE on %s', (kind) => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestContext(kind)
  })
  afterAll(() => t.close())

  it('takes https to a public address only, on create and on change', async () => {
    const owner = await t.register('student')
    for (const url of ['http://crm.example.com/hook', 'https://127.0.0.1/hook', 'https://10.0.0.7/hook', 'https://169.254.169.254/latest/meta-data', 'https://[::1]/hook', 'https://localhost/hook']) {
      const res = await t.request<Problem>('POST', '/api/webhook-endpoints', { token: owner.token, body: { url, events: ['booking.created'] } })
      expect([res.status, Object.keys(res.body.errors ?? {})], url).toEqual([422, ['url']])
    }
    const created = await t.request<One<Endpoint>>('POST', '/api/webhook-endpoints', { token: owner.token, body: { url: 'https://93.184.216.34/hook', events: ['booking.created'] } })
    expect(created.status, created.text).toBe(201)
    const moved = await t.request<Problem>('PUT', `/api/webhook-endpoints/${created.body.data.id}`, { token: owner.token, body: { url: 'https://192.168.1.10/hook' } })
    expect([moved.status, Object.keys(moved.body.errors ?? {})]).toEqual([422, ['url']])
  })
})
