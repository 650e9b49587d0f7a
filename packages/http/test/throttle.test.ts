import { randomInt } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { freshAddress, twoInstancesSharingRedis } from './support/client-addresses'
import { createTestContext, type RequestOptions, type TestContext } from './support/harness'

type Problem = { status: number; code: string; detail?: string }


async function registerFrom(t: TestContext, from: string, email: string) {
  const res = await t.request<{ data: { token: string; user: { id: number } } }>('POST', '/api/auth/register', {
    from,
    body: { email, password: 'password123', firstname: 'Rate', lastname: 'Limited', role: 'student', country: 'GB' },
  })
  expect(res.status).toBe(201)
  return res.body.data
}

const statusesOf = async (t: TestContext, n: number, method: string, url: string, options: RequestOptions) => {
  const out: number[] = []
  for (let i = 0; i < n; i++) out.push((await t.request(method, url, options)).status)
  return out
}

describe.each(testDatabaseKinds())('throttle on %s', (kind) => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestContext(kind, { THROTTLE_PER_MINUTE: '3', AUTH_THROTTLE_PER_MINUTE: '1000' })
  })
  afterAll(() => t.close())

  it('announces the policy on every answer and refuses the request over the limit with 429 and Retry-After', async () => {
    const from = freshAddress()
    const first = await t.request('GET', '/api/countries', { from })
    expect(first.headers.get('ratelimit-policy')).toBe('3;w=60')
    expect(first.headers.get('ratelimit')).toMatch(/^limit=3, remaining=2, reset=\d+$/)
    await t.request('GET', '/api/countries', { from })
    const third = await t.request('GET', '/api/countries', { from })
    expect(third.status).toBe(200)
    expect(third.headers.get('ratelimit')).toMatch(/remaining=0/)
    const refused = await t.request<Problem>('GET', '/api/countries', { from })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('content-type')).toBe('application/problem+json; charset=utf-8')
    expect(refused.body).toMatchObject({ status: 429, code: 'too_many_requests' })
    const retryAfter = Number(refused.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(refused.headers.get('ratelimit-policy')).toBe('3;w=60')
    expect(refused.headers.get('ratelimit')).toMatch(/^limit=3, remaining=0, reset=\d+$/)
    expect(refused.headers.get('x-request-id')).toBeTruthy()
  })

  it('counts per user when a token works, else per client address', async () => {
    const shared = freshAddress()
    const alice = await registerFrom(t, freshAddress(), `alice.${Date.now()}@example.com`)
    const bob = await registerFrom(t, freshAddress(), `bob.${Date.now()}@example.com`)
    const asAlice = { from: shared, token: alice.token }
    expect(await statusesOf(t, 4, 'GET', `/api/v1/users/${alice.user.id}`, asAlice)).toEqual([200, 200, 200, 429])
    // Same address, other user: a counter of its own; and the address itself is untouched.
    expect(await statusesOf(t, 3, 'GET', `/api/v1/users/${bob.user.id}`, { from: shared, token: bob.token })).toEqual([200, 200, 200])
    expect(await statusesOf(t, 4, 'GET', '/api/countries', { from: shared })).toEqual([200, 200, 200, 429])
    // Alice is limited from any address, because she is counted as herself.
    expect((await t.request('GET', '/api/countries', { from: freshAddress(), token: alice.token })).status).toBe(429)
  })

  it('never throttles /healthz and /readyz', async () => {
    const from = freshAddress()
    for (const url of ['/healthz', '/readyz']) {
      const answers = await Promise.all(Array.from({ length: 6 }, () => t.request('GET', url, { from })))
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200])
      expect(answers[0]!.headers.get('ratelimit')).toBeNull()
    }
    expect(await statusesOf(t, 4, 'GET', '/api/countries', { from })).toEqual([200, 200, 200, 429])
  })
})

describe.each(testDatabaseKinds())('the stricter auth throttle on %s', (kind) => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestContext(kind, { THROTTLE_PER_MINUTE: '1000', AUTH_THROTTLE_PER_MINUTE: '2' })
  })
  afterAll(() => t.close())

  const login = (from: string, email: string) => t.request('POST', '/api/auth/login', { from, body: { email, password: 'wrong password' } })

  it('limits login per client address, whatever the email', async () => {
    const from = freshAddress()
    const statuses = [] as number[]
    for (let i = 0; i < 3; i++) statuses.push((await login(from, `guess${i}.${Date.now()}@example.com`)).status)
    expect(statuses).toEqual([401, 401, 429])
    // Other routes from that address are still served.
    expect((await t.request('GET', '/api/countries', { from })).status).toBe(200)
  })

  it("counts an email per address, so failing as someone from one address never locks them out from another", async () => {
    const email = `target.${Date.now()}@example.com`
    const attacker = freshAddress()
    const statuses = [] as number[]
    for (let i = 0; i < 3; i++) statuses.push((await login(attacker, i === 2 ? email.toUpperCase() : email)).status)
    expect(statuses).toEqual([401, 401, 429])
    expect((await login(freshAddress(), email)).status).toBe(401)
  })

  it('limits forgot, reset and the public validate route the same way', async () => {
    const from = freshAddress()
    const forgot = await statusesOf(t, 3, 'POST', '/api/auth/forgot', { from, body: { email: `f.${Date.now()}@example.com` } })
    expect(forgot).toEqual([202, 202, 429])
    const resetFrom = freshAddress()
    const reset = await statusesOf(t, 3, 'POST', '/api/auth/reset', { from: resetFrom, body: { email: `r.${Date.now()}@example.com`, token: 'x'.repeat(43), password: 'new password 1' } })
    expect(reset).toEqual([422, 422, 429])
    const validateFrom = freshAddress()
    const validate = await statusesOf(t, 3, 'GET', `/api/users/v.${Date.now()}@example.com/validate`, { from: validateFrom })
    expect(validate).toEqual([200, 200, 429])
  })

  it('leaves registration to the general limit', async () => {
    const from = freshAddress()
    for (let i = 0; i < 3; i++) {
      const res = await t.request('POST', '/api/auth/register', {
        from,
        body: { email: `reg${i}.${Date.now()}@example.com`, password: 'password123', firstname: 'R', lastname: 'G', role: 'parent', country: 'GB' },
      })
      expect(res.status).toBe(201)
    }
  })
})

const redisUrl = process.env.REDIS_URL

describe.runIf(redisUrl).each(testDatabaseKinds())('throttle counters in Redis on %s', (kind) => {
  let a: TestContext
  let b: TestContext
  let pair: Awaited<ReturnType<typeof twoInstancesSharingRedis>>
  beforeAll(async () => {
    pair = await twoInstancesSharingRedis(kind, redisUrl!, { THROTTLE_PER_MINUTE: '3', AUTH_THROTTLE_PER_MINUTE: '2' })
    ;({ a, b } = pair)
  })
  // Only this test's keys: every address and email it used is unique to it.
  afterAll(() => pair.close())

  it('shares the per-address count between two instances', async () => {
    const from = freshAddress()
    pair.forget(`addr:${from}`)
    const statuses = []
    for (const app of [a, b, a, b]) statuses.push((await app.request('GET', '/api/countries', { from })).status)
    expect(statuses).toEqual([200, 200, 200, 429])
    expect((await b.request('GET', '/api/countries', { from })).headers.get('retry-after')).toBeTruthy()
  })

  it('shares the auth counts between two instances', async () => {
    const email = `shared.${Date.now()}.${randomInt(1e9)}@example.com`
    const from = freshAddress()
    pair.forget(`addr:${from}`, `email:${email}:addr:${from}`)
    const statuses = []
    for (const app of [a, b, a]) statuses.push((await app.request('POST', '/api/auth/login', { from, body: { email, password: 'wrong password' } })).status)
    expect(statuses).toEqual([401, 401, 429])
  })
})
