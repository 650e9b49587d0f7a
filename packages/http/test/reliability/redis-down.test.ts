import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { systemResolver } from '@tutoring/adapters'
import { addSearchableTutor, catalogOf, testDatabaseKinds, TestRedis } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from '../support/harness'
import { recordFinding } from '../support/findings'

type Ready = { data?: { status: string; checks: Record<string, string> }; status?: number; checks?: Record<string, string> }

let nextAddress = 0
const freshAddress = () => `198.51.${(nextAddress >> 8) & 255}.${nextAddress++ & 255}`

/**
 * Issue 14: with Redis down every API route answered 500 after ~1.5 s, /readyz said ok and
 * ioredis printed raw text. Now: a Redis of the test's own is stopped under a running app;
 * the throttle keeps limiting per process, caches fall back to the process, requests stay
 * fast, /readyz says what is down, and the outage is logged once through the logger.
 */
describe.each(testDatabaseKinds())('Redis going away and coming back, on %s', (kind) => {
  let redis: TestRedis
  let t: TestContext
  let feeds: Server
  let feedHits = 0
  const logs: Array<{ level: number; msg: string }> = []

  beforeAll(async () => {
    redis = await TestRedis.start()
    feeds = createServer((_req, res) => {
      feedHits++
      res.writeHead(200, { 'content-type': 'text/calendar' })
      res.end('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nEND:VCALENDAR\r\n')
    })
    await new Promise<void>((resolve) => feeds.listen(0, '127.0.0.1', resolve))
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          logs.push(JSON.parse(chunk.toString()) as { level: number; msg: string })
          done()
        },
      }),
    )
    t = await createTestContext(kind, { REDIS_URL: redis.url, THROTTLE_PER_MINUTE: '5' }, { logger, calendarAddressPolicy: { allow: () => true, resolve: systemResolver } })
  })
  afterAll(async () => {
    await t.close()
    await redis.stop()
    await new Promise((resolve) => feeds.close(resolve))
  })

  it('keeps answering, limiting and caching in the process, reports it, and logs the outage once', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'Redis down',
      tried: 'a Redis of the test\u2019s own killed under a running app for ~3 s, then started again on the same port',
      held: 'no 5xx, no request waiting on Redis; the throttle limited per process (429 after 5); the calendar cache kept to the process; /readyz degraded then ok; one log line each way, none raw',
    })
    const rawErrors = vi.spyOn(console, 'error')
    let requests = 0
    let lost = 0
    const call = async <T = unknown>(url: string, from = freshAddress()) => {
      requests++
      const started = performance.now()
      const res = await t.request<T>('GET', url, { from })
      if (res.status >= 500) lost++
      return { ...res, ms: performance.now() - started }
    }
    const tutorId = await addSearchableTutor(t, await catalogOf(t))
    await t.db.updateTable('profiles').set({ calendar_feed_url: `http://127.0.0.1:${(feeds.address() as AddressInfo).port}/t.ics` }).where('user_id', '=', tutorId).execute()
    const teachId = (await t.db.selectFrom('teaches').select('id').where('tutor_id', '=', tutorId).executeTakeFirstOrThrow()).id

    const up = await call<Ready>('/readyz')
    expect(up.body.data).toEqual({ status: 'ok', checks: { database: 'up', redis: 'up' } })

    await redis.stop()
    // Long enough for several reconnection attempts, each of which ioredis reports as an error.
    await new Promise((resolve) => setTimeout(resolve, 1_500))

    const from = freshAddress()
    const answers = []
    for (let i = 0; i < 7; i++) answers.push(await call('/api/countries', from))
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429, 429])
    expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(1_000)

    for (let i = 0; i < 3; i++) expect((await call(`/api/availabilites?teach_id=${teachId}`)).status).toBe(200)
    expect(feedHits).toBe(1)

    const degraded = await call<Ready>('/readyz')
    expect([degraded.status, degraded.body.data]).toEqual([200, { status: 'degraded', checks: { database: 'up', redis: 'down' } }])

    await redis.start()
    let back: Ready | undefined
    for (let i = 0; i < 40 && back?.data?.checks.redis !== 'up'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      back = (await call<Ready>('/readyz')).body
    }
    expect(back?.data).toEqual({ status: 'ok', checks: { database: 'up', redis: 'up' } })

    const messages = logs.map((l) => l.msg)
    expect(messages.filter((m) => m.startsWith('redis unavailable'))).toHaveLength(1)
    expect(messages.filter((m) => m.startsWith('redis available again'))).toHaveLength(1)
    expect(rawErrors.mock.calls.filter((args) => String(args[0]).includes('ioredis'))).toEqual([])
    rawErrors.mockRestore()
    finding.figures = { requests, 'faults injected': 1, lost, duplicated: 0 }
    expect(lost).toBe(0)
  })
})
