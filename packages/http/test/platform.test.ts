import { Writable } from 'node:stream'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { createApp } from '../src/app'
import { createTestContext, type TestContext } from './support/harness'

type Problem = { type: string; title: string; status: number; code: string; detail?: string; errors?: Record<string, string[]> }

const PROBLEM_TYPE = 'application/problem+json; charset=utf-8'
const JSON_TYPE = 'application/json; charset=utf-8'

/** CONTRACT §9: on every answer, success or problem. */
function expectPlatformHeaders(headers: Headers) {
  expect(headers.get('strict-transport-security')).toMatch(/max-age=\d+/)
  expect(headers.get('x-frame-options')).toBe('DENY')
  expect(headers.get('x-content-type-options')).toBe('nosniff')
  expect(headers.get('x-xss-protection')).toBeTruthy()
  expect(headers.get('x-powered-by')).toBeNull()
  expect(headers.get('server')).toBeNull()
  expect(headers.get('x-request-id')).toMatch(/^[\w-]{8,}$/)
}

/** Log lines as the process would write them, kept for the test to read. */
function capturedLogger() {
  const lines: Array<Record<string, unknown>> = []
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>)
      done()
    },
  })
  return { logger: pino({ level: 'info', base: undefined }, sink), lines }
}

describe.each(testDatabaseKinds())('HTTP platform on %s', (kind) => {
  let t: TestContext
  const log = capturedLogger()
  beforeAll(async () => {
    t = await createTestContext(kind, {}, { logger: log.logger })
  })
  afterAll(() => t.close())

  describe('errors', () => {
    it('answers an unknown route with a 404 problem', async () => {
      const res = await t.request<Problem>('GET', '/api/no-such-thing')
      expect(res.status).toBe(404)
      expect(res.headers.get('content-type')).toBe(PROBLEM_TYPE)
      expect(res.body).toEqual({ type: '/problems/not-found', title: 'Not found', status: 404, code: 'not_found', detail: 'No route for GET /api/no-such-thing.' })
      expectPlatformHeaders(res.headers)
    })

    it('answers a known path asked with another method with 405 and Allow', async () => {
      const post = await t.request<Problem>('POST', '/api/subjects', { body: {} })
      expect(post.status).toBe(405)
      expect(post.headers.get('allow')).toBe('GET, HEAD')
      expect(post.body).toMatchObject({ status: 405, code: 'method_not_allowed' })
      expectPlatformHeaders(post.headers)
      const del = await t.request<Problem>('DELETE', '/api/auth/login')
      expect(del.status).toBe(405)
      expect(del.headers.get('allow')).toBe('POST')
      const legacy = await t.request<Problem>('PATCH', '/api/v1/users/12')
      expect(legacy.status).toBe(405)
      expect(legacy.headers.get('allow')).toBe('GET, HEAD, PUT')
    })

    it('answers an empty body labelled with a type the route does not take with 400 malformed_request, never a 500', async () => {
      const { token, user } = await t.register('student')
      for (const type of ['text/plain', 'application/xml', 'multipart/form-data; boundary=x']) {
        const res = await t.request<Problem>('PUT', `/api/v1/users/${user.id}`, { token, headers: { 'content-type': type, 'content-length': '0' } })
        expect([res.status, res.body.code], type).toEqual([400, 'malformed_request'])
      }
      const login = await t.request<Problem>('POST', '/api/auth/login', { headers: { 'content-type': 'text/plain', 'content-length': '0' } })
      expect([login.status, login.body.code]).toEqual([400, 'malformed_request'])
      // Through a socket, where Content-Length: 0 reaches the server as sent.
      const base = await t.listen()
      for (const [method, path] of [['PUT', `/api/v1/users/${user.id}`], ['POST', '/api/auth/login'], ['POST', '/api/files']] as const) {
        const res = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain', 'content-length': '0' } })
        expect([res.status, ((await res.json()) as Problem).code], path).toEqual([400, 'malformed_request'])
      }
      for (const type of ['application/json', 'application/x-www-form-urlencoded', 'text/plain']) {
        const upload = await t.request<Problem>('POST', '/api/files', { token, raw: type === 'application/json' ? '{}' : 'a=1', headers: { 'content-type': type } })
        expect(upload.status, `${type} ${upload.text}`).toBeLessThan(500)
      }
    })

    it('answers malformed JSON and a wrong content type with 400 malformed_request', async () => {
      const { token, user } = await t.register('student')
      const cases: Array<{ raw: string; headers: Record<string, string> }> = [
        { raw: '{"firstname": "A",', headers: { 'content-type': 'application/json' } },
        { raw: '', headers: { 'content-type': 'application/json' } },
        { raw: '{"firstname":"A"}', headers: { 'content-type': 'text/plain' } },
        { raw: '{"firstname":"A"}', headers: {} },
      ]
      for (const { raw, headers } of cases) {
        const res = await t.request<Problem>('PUT', `/api/v1/users/${user.id}`, { raw, headers, token })
        expect(res.status, raw + JSON.stringify(headers)).toBe(400)
        expect(res.body.code).toBe('malformed_request')
        expect(res.headers.get('content-type')).toBe(PROBLEM_TYPE)
      }
    })

    it('answers a body over 1 MiB with 413 payload_too_large, with or without Content-Length', async () => {
      const big = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(1024 * 1024) })
      const declared = await t.request<Problem>('POST', '/api/auth/login', {
        raw: big,
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(big)) },
      })
      expect(declared.status).toBe(413)
      expect(declared.body).toMatchObject({ status: 413, code: 'payload_too_large' })
      expectPlatformHeaders(declared.headers)
      const streamed = await t.app.request('/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new Blob([big]).stream(),
        duplex: 'half',
      } as RequestInit)
      expect(streamed.status).toBe(413)
      expect(((await streamed.json()) as Problem).code).toBe('payload_too_large')
    })

    it('accepts a body just under the limit', async () => {
      const body = JSON.stringify({ email: 'nobody@example.com', password: 'x'.repeat(1024 * 1024 - 100) })
      const res = await t.request<Problem>('POST', '/api/auth/login', { raw: body, headers: { 'content-type': 'application/json' } })
      expect(res.status).not.toBe(413)
    })

    it('answers an unexpected error with a bare 500 and logs it with the request id', async () => {
      const app = createApp(t.services)
      app.get('/test/boom', () => {
        throw new Error('select password_hash from users where id = 1 -- secret internals')
      })
      const res = await app.request('/test/boom')
      const text = await res.text()
      expect(res.status).toBe(500)
      expect(res.headers.get('content-type')).toBe(PROBLEM_TYPE)
      expect(JSON.parse(text)).toEqual({ type: '/problems/internal-error', title: 'Internal server error', status: 500, code: 'internal_error' })
      expect(text).not.toMatch(/select|password|secret|at .*\.ts/i)
      expectPlatformHeaders(res.headers)
      const requestId = res.headers.get('x-request-id')
      const logged = log.lines.find((l) => l.msg === 'unhandled error' && l.reqId === requestId)
      expect(logged).toBeDefined()
    })
  })

  describe('headers', () => {
    it('answers JSON as application/json; charset=utf-8 with the security headers', async () => {
      for (const url of ['/api/subjects', '/healthz', '/api/lesson-price']) {
        const res = await t.request('GET', url)
        expect(res.status).toBe(200)
        expect(res.headers.get('content-type'), url).toBe(JSON_TYPE)
        expectPlatformHeaders(res.headers)
      }
      const registered = await t.request('POST', '/api/auth/register', {
        body: { email: 'charset@example.com', password: 'password123', firstname: 'C', lastname: 'S', role: 'student', country: 'GB' },
      })
      expect(registered.status).toBe(201)
      expect(registered.headers.get('content-type')).toBe(JSON_TYPE)
    })

    it('gives every request its own id, keeps a sane one the client sent, and logs it', async () => {
      const a = await t.request('GET', '/healthz')
      const b = await t.request('GET', '/healthz')
      expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'))
      const mine = await t.request('GET', '/api/countries', { headers: { 'x-request-id': 'client-chosen-id-123' } })
      expect(mine.headers.get('x-request-id')).toBe('client-chosen-id-123')
      const line = log.lines.find((l) => l.msg === 'request' && l.reqId === 'client-chosen-id-123')
      expect(line).toMatchObject({ method: 'GET', path: '/api/countries', status: 200 })
      const problem = await t.request('GET', '/api/v1/exam-boards')
      expect(problem.status).toBe(401)
      expect(problem.headers.get('x-request-id')).toBeTruthy()
    })

    it('tags GET answers with an ETag and answers 304 with no body to If-None-Match', async () => {
      const first = await t.request('GET', '/api/subjects')
      const tag = first.headers.get('etag')
      expect(tag).toMatch(/^"[^"]+"$/)
      const again = await t.request('GET', '/api/subjects', { headers: { 'if-none-match': tag! } })
      expect(again.status).toBe(304)
      expect(again.text).toBe('')
      expect(again.headers.get('etag')).toBe(tag)
      expectPlatformHeaders(again.headers)
      const other = await t.request('GET', '/api/subjects', { headers: { 'if-none-match': '"something-else"' } })
      expect(other.status).toBe(200)
      const page2 = await t.request('GET', '/api/subjects?page=2', { headers: { 'if-none-match': tag! } })
      expect(page2.status).toBe(200)
      expect(page2.headers.get('etag')).not.toBe(tag)
    })

    it('answers HEAD on a GET route with the headers and no body', async () => {
      const get = await t.request('GET', '/api/countries')
      const head = await t.request('HEAD', '/api/countries')
      expect(head.status).toBe(200)
      expect(head.text).toBe('')
      expect(head.headers.get('content-type')).toBe(JSON_TYPE)
      expect(head.headers.get('etag')).toBe(get.headers.get('etag'))
      expectPlatformHeaders(head.headers)
      expect((await t.request('HEAD', '/api/nothing-here')).status).toBe(404)
    })
  })

  describe('documentation', () => {
    it('serves an OpenAPI 3.1 document naming the routes of both families, and renders it at /docs', async () => {
      const doc = await t.request<{ openapi: string; paths: Record<string, Record<string, unknown>> }>('GET', '/openapi.json')
      expect(doc.status).toBe(200)
      expect(doc.body.openapi).toBe('3.1.0')
      for (const [route, method] of [
        ['/api/subjects', 'get'],
        ['/api/v1/subjects', 'get'],
        ['/api/users/{user}', 'put'],
        ['/api/users/{user}', 'get'],
        ['/api/v1/users/{id}', 'get'],
        ['/api/users/username/claim/{id}', 'get'],
        ['/api/auth/register', 'post'],
        ['/api/v1/auth/register', 'post'],
      ] as const) {
        expect(doc.body.paths[route]?.[method], `${method} ${route}`).toBeDefined()
      }
      const docs = await t.request('GET', '/docs')
      expect(docs.status).toBe(200)
      expect(docs.headers.get('content-type')).toMatch(/^text\/html/)
    })
  })
})

describe.each(testDatabaseKinds())('CORS on %s', (kind) => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestContext(kind, { CORS_TRUSTED_ORIGINS: 'https://app.example.com, https://admin.example.com', CORS_WHITELIST: 'partner.test' })
  })
  afterAll(() => t.close())

  const allowedOrigin = async (origin: string) =>
    (await t.request('GET', '/api/subjects', { headers: { origin } })).headers.get('access-control-allow-origin')

  it('echoes an origin of the trusted list, matched exactly', async () => {
    expect(await allowedOrigin('https://app.example.com')).toBe('https://app.example.com')
    expect(await allowedOrigin('https://admin.example.com')).toBe('https://admin.example.com')
    expect(await allowedOrigin('https://app.example.com.evil.test')).toBeNull()
    expect(await allowedOrigin('http://app.example.com')).toBeNull()
  })

  it('marks every answer as varying by Origin, so a cache keeps answers for different origins apart', async () => {
    const res = await t.request('GET', '/api/subjects', { headers: { origin: 'https://app.example.com' } })
    expect(res.headers.get('vary')).toContain('Origin')
    expect(res.headers.get('access-control-expose-headers')).toContain('RateLimit')
  })

  it('echoes an origin that contains a whitelisted string', async () => {
    expect(await allowedOrigin('https://shop.partner.test')).toBe('https://shop.partner.test')
    expect(await allowedOrigin('https://evil.example.org')).toBeNull()
  })

  it('answers a preflight for an allowed origin, and not for another', async () => {
    const preflight = (origin: string) =>
      t.request('OPTIONS', '/api/auth/login', {
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, authorization' },
      })
    const ok = await preflight('https://app.example.com')
    expect(ok.status).toBe(204)
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example.com')
    expect(ok.headers.get('access-control-allow-methods')).toContain('POST')
    expect(ok.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization')
    const refused = await preflight('https://evil.example.org')
    expect(refused.headers.get('access-control-allow-origin')).toBeNull()
  })
})

describe.each(testDatabaseKinds())('trusted proxies on %s', (kind) => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestContext(kind, { THROTTLE_PER_MINUTE: '2', TRUSTED_PROXIES: 'loopback, 10.0.0.0/8' })
  })
  afterAll(() => t.close())

  /** The throttle counts per client address, so it shows which address the service believed. */
  const statuses = async (from: string, forwardedFor: string[]) => {
    const out: number[] = []
    for (const xff of forwardedFor) out.push((await t.request('GET', '/api/countries', { from, headers: { 'x-forwarded-for': xff } })).status)
    return out
  }

  it('ignores X-Forwarded-For from an untrusted peer', async () => {
    expect(await statuses('203.0.113.7', ['198.51.100.1', '198.51.100.2', '198.51.100.3'])).toEqual([200, 200, 429])
  })

  it('believes X-Forwarded-For from a trusted proxy, loopback or a configured range', async () => {
    expect(await statuses('127.0.0.1', ['198.51.100.11', '198.51.100.12', '198.51.100.13'])).toEqual([200, 200, 200])
    expect(await statuses('10.1.2.3', ['198.51.100.21', '198.51.100.22', '198.51.100.23'])).toEqual([200, 200, 200])
    expect(await statuses('10.1.2.4', ['198.51.100.31', '198.51.100.31', '198.51.100.31'])).toEqual([200, 200, 429])
  })

  it('does not let a client behind a trusted proxy spoof the hop before it', async () => {
    // The proxy appends the address it saw; a forged entry to its left is not believed.
    expect(await statuses('127.0.0.1', ['1.1.1.1, 198.51.100.41', '2.2.2.2, 198.51.100.41', '3.3.3.3, 198.51.100.41'])).toEqual([200, 200, 429])
  })
})
