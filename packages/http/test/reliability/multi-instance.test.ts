import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serverDatabaseUrl, TestRedis } from '@tutoring/adapters/testing'
import { startServerProcess, stopProcess, type Launched } from '../support/child-server'
import { recordFinding } from '../support/findings'
import { APP_KEY, createTestContext, type TestContext } from '../support/harness'
import { httpCall, type HttpAnswer, type HttpCallOptions } from '../support/http-call'

const HOUR = 3_600_000
const DAY = 24 * HOUR
const serverUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL

type Booking = { data: { id: number; lesson: { id: number } } }

/**
 * Issue 14: two server processes on one PostgreSQL and one Redis, started together as
 * `compose.yaml` starts them. The throttle is one budget across both; a periodic job both
 * run (hold expiry, outbox delivery) has its effect once; an Idempotency-Key replayed on
 * the other instance answers the first answer and books nothing more.
 */
describe.skipIf(!serverUrl)('two instances on one PostgreSQL and one Redis', () => {
  let redis: TestRedis
  let t: TestContext
  let dataDir: string
  const servers: Array<Launched & { url: string }> = []
  let requests = 0

  beforeAll(async () => {
    redis = await TestRedis.start()
    // The test's own view of the database, for setting the scene and reading what happened.
    t = await createTestContext('postgres', { REDIS_URL: redis.url })
    // One mail folder for both, so a message delivered twice shows as two files.
    dataDir = await mkdtemp(path.join(tmpdir(), 'tutoring-two-'))
    const env = {
      DATABASE_URL: await serverDatabaseUrl(t.db),
      REDIS_URL: redis.url,
      DATA_DIR: dataDir,
      APP_KEY,
      LOG_LEVEL: 'info',
      BACKGROUND_JOBS: 'on',
      BACKGROUND_JOBS_INTERVAL_MS: '150',
      // CONTRACT §9's defaults, whatever the test runner's environment says.
      THROTTLE_PER_MINUTE: '',
      AUTH_THROTTLE_PER_MINUTE: '',
      STRIPE_SECRET_KEY: '',
    }
    servers.push(...(await Promise.all([startServerProcess(env), startServerProcess(env)])))
  }, 120_000)
  afterAll(async () => {
    for (const server of servers) await stopProcess(server)
    await t?.close()
    await redis?.stop()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  const call = <T>(instance: number, method: string, url: string, options: HttpCallOptions = {}): Promise<HttpAnswer<T>> => {
    requests++
    return httpCall<T>(servers[instance]!.url, method, url, options)
  }

  it('share one throttle: the 301st request within the minute, across both, is a 429', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'Two instances: shared throttle',
      tried: '301 requests from one client address, alternating between two server processes on one Redis',
      held: 'the first 300 answered, the 301st refused with 429 and Retry-After; RateLimit remaining counted down across both',
    })
    const before = requests
    // A client address of its own (the test speaks through loopback, a trusted proxy).
    const from = { 'x-forwarded-for': '198.51.100.77' }
    const statuses: number[] = []
    const remaining: number[] = []
    for (let i = 0; i < 300; i++) {
      const res = await call(i % 2, 'GET', '/api/countries', { headers: from })
      statuses.push(res.status)
      remaining.push(Number(/remaining=(\d+)/.exec(res.headers.get('ratelimit') ?? '')?.[1]))
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([])
    expect(remaining).toEqual(Array.from({ length: 300 }, (_, i) => 299 - i))
    const refused = await call<{ code: string }>(1, 'GET', '/api/countries', { headers: from })
    expect([refused.status, refused.body.code]).toEqual([429, 'too_many_requests'])
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    // The other instance refuses too: the budget is spent for both.
    expect((await call(0, 'GET', '/api/countries', { headers: from })).status).toBe(429)
    finding.figures = { instances: 2, requests: requests - before, 'faults injected': 0, lost: 0, duplicated: 0, 'refused from the 301st': 2 }
  })

  it('replay an Idempotency-Key on the other instance, and run each job\u2019s effect once', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'Two instances: idempotency and periodic jobs',
      tried: 'a booking\u2019s Idempotency-Key replayed on the other instance, and sent to both at once; holds lapsing and emails queued under two instances\u2019 hold and outbox jobs every 150 ms',
      held: 'the replay answered the first booking (same id), one booking made; each hold expired once (one event, one cancellation); every email the bookings queued claimed by one instance, once, and written once',
    })
    const before = requests
    const register = async (instance: number, role: string, name: string) => {
      const res = await call<{ data: { token: string; user: { id: number } } }>(instance, 'POST', '/api/auth/register', {
        json: { email: `${name}@two.example.com`, password: 'a long enough password', firstname: name, lastname: 'Two', role, country: 'GB' },
      })
      expect(res.status, res.text).toBe(201)
      return res.body.data
    }
    const tutor = await register(0, 'tutor', 'tara')
    await t.passVerifications(tutor.user.id)
    const students = [await register(1, 'student', 'sol'), await register(0, 'student', 'sid')]
    const subject = await t.db.selectFrom('subjects').select('id').where('title', '=', 'Mathematics').executeTakeFirstOrThrow()
    const level = await t.db.selectFrom('subject_levels').select('id').where('title', '=', 'GCSE').executeTakeFirstOrThrow()
    const teach = await call<{ data: { id: number } }>(0, 'POST', '/api/v1/teaches', { token: tutor.token, json: { subject_id: subject.id, subject_level_ids: [level.id], hourly_rate: '30.00' } })
    expect(teach.status, teach.text).toBe(201)
    for (const day of ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY']) {
      const entry = await call(1, 'POST', '/api/v1/day-availabilities', { token: tutor.token, json: { day, slots: [{ from: '00:00', to: '24:00' }], lesson_types: ['online'], buffer_minutes: 0 } })
      expect(entry.status, entry.text).toBe(201)
    }
    // Whole hours from two days on, none starting at 23:00 London time (a lesson lies within one day's window).
    const base = Math.ceil(Date.now() / HOUR) * HOUR + 2 * DAY
    const londonHour = (at: number) => Number(new Intl.DateTimeFormat('en-GB', { hour: '2-digit', hourCycle: 'h23', timeZone: 'Europe/London' }).format(new Date(at)))
    const hours = Array.from({ length: 48 }, (_, i) => base + i * 2 * HOUR).filter((at) => londonHour(at) !== 23)
    const body = (at: number) => ({ teach_id: teach.body.data.id, subject_level_id: level.id, lesson_type: 3, start: new Date(at).toISOString(), finish: new Date(at + HOUR).toISOString() })

    // Replayed on the other instance: the first answer, nothing new.
    const first = await call<Booking>(0, 'POST', '/api/bookings', { token: students[0]!.token, json: body(hours[0]!), headers: { 'idempotency-key': 'two-instances-1' } })
    expect(first.status, first.text).toBe(201)
    const replay = await call<Booking>(1, 'POST', '/api/bookings', { token: students[0]!.token, json: body(hours[0]!), headers: { 'idempotency-key': 'two-instances-1' } })
    expect([replay.status, replay.body.data.id]).toEqual([201, first.body.data.id])
    // Sent to both at once: one books, the other answers the same booking or "still in flight".
    const both = await Promise.all([0, 1].map((i) => call<Booking>(i, 'POST', '/api/bookings', { token: students[1]!.token, json: body(hours[1]!), headers: { 'idempotency-key': 'two-instances-2' } })))
    const made = both.filter((r) => r.status === 201)
    expect(made.length, both.map((r) => r.text).join('\n')).toBeGreaterThanOrEqual(1)
    expect(new Set(made.map((r) => r.body.data.id)).size).toBe(1)
    expect(both.filter((r) => r.status !== 201).map((r) => [r.status, (r.body as unknown as { code: string }).code])).toEqual(made.length === 2 ? [] : [[409, 'idempotency_key_in_flight']])
    const bookingsMade = await t.db.selectFrom('bookings').select('id').execute()
    expect(bookingsMade).toHaveLength(2)

    // Four more unpaid bookings, then every hold lapses at once under both instances' jobs.
    const more = []
    for (const [i, at] of hours.slice(2, 6).entries()) {
      const res = await call<Booking>(i % 2, 'POST', '/api/bookings', { token: students[i % 2]!.token, json: body(at) })
      expect(res.status, res.text).toBe(201)
      more.push(res.body.data.id)
    }
    const ids = [first.body.data.id, made[0]!.body.data.id, ...more]
    const past = new Date(Date.now() - 20 * 60_000)
    await t.db.updateTable('bookings').set({ created_at: past, hold_expires_at: new Date(past.getTime() + 15 * 60_000) }).where('id', 'in', ids).execute()

    const settled = async () => {
      const open = await t.db.selectFrom('outbox').select('id').where('delivered_at', 'is', null).execute()
      const cancelled = await t.db.selectFrom('bookings as b').innerJoin('lessons as l', 'l.id', 'b.lesson_id').select('b.id').where('b.id', 'in', ids).where('l.state', '=', 0).execute()
      return open.length === 0 && cancelled.length === ids.length
    }
    for (let waited = 0; waited < 20_000 && !(await settled()); waited += 200) await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await settled()).toBe(true)
    // A few more rounds of both instances' jobs, to give a second effect every chance to show.
    await new Promise((resolve) => setTimeout(resolve, 1_000))

    const expiries = await t.db.selectFrom('booking_events').select(['booking_id']).where('kind', '=', 'hold_expired').where('booking_id', 'in', ids).execute()
    expect(expiries.map((e) => e.booking_id).sort()).toEqual([...ids].sort())
    const emails = await t.db.selectFrom('outbox').select(['id', 'attempts']).where('kind', '=', 'email').execute()
    // Each claimed by one worker once (a second claim would be a second send).
    expect(emails.filter((e) => e.attempts !== 1)).toEqual([])
    const files = (await readdir(path.join(dataDir, 'mail'))).filter((f) => f.endsWith('.eml'))
    const filesPer = (id: number) => files.filter((f) => f.includes(`outbox-${id}_`)).length
    expect(emails.map((e) => [e.id, filesPer(e.id)])).toEqual(emails.map((e) => [e.id, 1]))
    expect(files).toHaveLength(emails.length)
    finding.figures = {
      instances: 2,
      requests: requests - before,
      'faults injected': ids.length,
      'holds expired': expiries.length,
      'emails delivered': files.length,
      lost: ids.length - expiries.length,
      duplicated: emails.filter((e) => e.attempts > 1).length + (replay.body.data.id === first.body.data.id ? 0 : 1),
    }
    // The bookings' emails, delivered while both instances' outbox jobs raced for them.
    expect(emails.length).toBeGreaterThanOrEqual(ids.length)
  })
})
