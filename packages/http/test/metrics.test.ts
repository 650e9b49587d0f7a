import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from './support/harness'

/** The value of one sample line `name{labels} value`, where every given label matches. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!match || match[1] !== name) continue
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]))
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3])
  }
  return undefined
}

/** CONTRACT §16 "Operations": GET /metrics. */
describe.each(testDatabaseKinds())('GET /metrics on %s', (kind) => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestContext(kind, { METRICS_TOKEN: 'scrape-secret-token-1' })
  })
  afterAll(() => t.close())

  it('answers Prometheus text from loopback, with request durations by route pattern', async () => {
    const student = await t.register('student')
    expect((await t.request('GET', `/api/v1/users/${student.user.id}`, { token: student.token })).status).toBe(200)
    await t.request('GET', '/api/subjects')
    await t.request('GET', '/api/no-such-thing')
    const res = await t.request('GET', '/metrics', { from: '127.0.0.1' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    expect(res.text).toContain('# TYPE http_server_request_duration_seconds histogram')
    expect(sample(res.text, 'http_server_request_duration_seconds_count', { method: 'GET', route: '/api/v1/users/{id}', status: '200' })).toBe(1)
    expect(sample(res.text, 'http_server_request_duration_seconds_count', { method: 'GET', route: '/api/subjects', status: '200' })).toBe(1)
    expect(sample(res.text, 'http_server_request_duration_seconds_count', { method: 'POST', route: '/api/auth/register', status: '201' })).toBe(1)
    // The raw path never becomes a label: one series per route, not per id.
    expect(res.text).not.toContain(`/api/v1/users/${student.user.id}"`)
    expect(sample(res.text, 'http_server_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1)
    expect(sample(res.text, 'http_server_request_duration_seconds_bucket', { route: '/api/subjects', le: '+Inf' })).toBe(1)
  })

  it('reports the database pool, the outbox depth by state, failing payments and job runs', async () => {
    const text = (await t.request('GET', '/metrics')).text
    expect(sample(text, 'db_client_connection_max')).toBeGreaterThanOrEqual(1)
    // Registration queued a verification email.
    expect(sample(text, 'outbox_depth', { state: 'pending' })).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'outbox_depth', { state: 'failing' })).toBe(0)
    expect(sample(text, 'payments_failing')).toBe(0)
    expect(text).toContain('# TYPE job_runs_total counter')
    expect(text).toContain('# TYPE job_duration_seconds histogram')
  })

  it('is a 404 problem from elsewhere without the token, and answers with it', async () => {
    const refused = await t.request<{ code: string }>('GET', '/metrics', { from: '203.0.113.9' })
    expect(refused.status).toBe(404)
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/)
    expect(refused.body.code).toBe('not_found')
    expect((await t.request('GET', '/metrics', { from: '203.0.113.9', token: 'wrong' })).status).toBe(404)
    const allowed = await t.request('GET', '/metrics', { from: '203.0.113.9', token: 'scrape-secret-token-1' })
    expect(allowed.status).toBe(200)
    expect(allowed.text).toContain('http_server_request_duration_seconds')
  })

  it('is a 404 from elsewhere when no token is configured', async () => {
    const bare = await createTestContext(kind)
    try {
      expect((await bare.request('GET', '/metrics', { from: '203.0.113.9', token: 'anything' })).status).toBe(404)
      expect((await bare.request('GET', '/metrics', { from: '::1' })).status).toBe(200)
    } finally {
      await bare.close()
    }
  })
})
