import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from './support/harness'

/**
 * "No request, however malformed, gets a 500": every route the OpenAPI document lists,
 * with every method, is called with hostile path parameters, query strings and bodies, as
 * anonymous and as each role, and must answer below 500 with a problem body on failure.
 * Routes that end the caller's session or account run last, so the rest see live tokens.
 */

type Operation = { method: string; path: string }

const PATH_VALUES = ['1', '0', '-1', 'abc', '99999999999999999999', '1.5', '%20', 'a'.repeat(300), '00000000-0000-0000-0000-000000000000', 'null']

const QUERIES = [
  '',
  '?page=0&per_page=1000',
  '?page=abc&per_page=-1',
  '?date=2026-02-30&duration=-5&utc_offset=99999',
  '?teach_id=abc&lesson_type=9&post_code=%%%',
  '?subject_id=1e309&lat=north&lng=200&sort=sideways',
  '?filters[lesson_type]=teleport&filters[gender]=x&filters[language]=-1',
  '?subject_level_ids[]=a&exam_boards[]=99999999999&date=yesterday',
  '?expires=1&signature=zz&secret=not-a-secret',
  '?email=%FF&postcode=' + 'Z'.repeat(500),
]

const BODIES: Array<{ raw: string; contentType?: string }> = [
  { raw: '{' },
  { raw: 'null' },
  { raw: '[]' },
  { raw: '"text"' },
  { raw: '12' },
  { raw: '{}' },
  { raw: JSON.stringify({ id: 1, user_id: 2, state: 1, price: 'free', extra: { nested: [1, 2, 3] } }) },
  {
    raw: JSON.stringify({
      email: 1,
      password: ['x'],
      start: 'tomorrow',
      finish: 12,
      teach_id: -1,
      subject_level_id: 1e309,
      date: '2026-13-45',
      slots: [{ from: '25:00', to: '-1:00' }],
      day: 'FUNDAY',
      hourly_rate: '-0.001',
      lesson_type: 'x',
      booking_id: 'abc',
      payment_method: { $gt: '' },
      status: 'PASS; drop table users',
      url: 'file:///etc/passwd',
      rating: 6,
      experience_rating: 0,
      suggested_start: '2026-01-01T00:00:00Z',
      suggested_finish: '1900-01-01',
    }),
  },
  { raw: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(5000), firstname: '\u0000', lastname: '', role: 'internal', country: 'ZZ' }) },
  { raw: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
  { raw: '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nnot a file\r\n--x--\r\n', contentType: 'multipart/form-data; boundary=x' },
  { raw: '--x\r\nbroken', contentType: 'multipart/form-data; boundary=x' },
  { raw: '{"a":1}', contentType: 'text/plain' },
]

const ENDS_SESSION = (op: Operation) => op.path === '/api/auth' || op.path.endsWith('/logout')

const fill = (path: string, value: string) => path.replace(/\{[^}]+\}/g, value)

describe.each(testDatabaseKinds())('hostile input on every route, on %s', (kind) => {
  let t: TestContext
  let operations: Operation[]
  let callers: Array<{ name: string; token?: string }>

  beforeAll(async () => {
    t = await createTestContext(kind)
    const doc = (await t.request<{ paths: Record<string, Record<string, unknown>> }>('GET', '/openapi.json')).body
    operations = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => ({ method: method.toUpperCase(), path })))
      .sort((a, b) => Number(ENDS_SESSION(a)) - Number(ENDS_SESSION(b)))
    const student = await t.register('student')
    const parent = await t.register('parent')
    const tutor = await t.register('tutor')
    const internal = await t.internalUser()
    callers = [
      { name: 'anonymous' },
      { name: 'student', token: student.token },
      { name: 'parent', token: parent.token },
      { name: 'tutor', token: tutor.token },
      { name: 'internal', token: internal.token },
    ]
  }, 60_000)
  afterAll(() => t.close())

  let failures: string[] = []
  beforeEach(() => {
    failures = []
  })
  const call = async (method: string, url: string, token: string | undefined, body?: { raw: string; contentType?: string }) => {
    const headers: Record<string, string> = {}
    if (body) headers['content-type'] = body.contentType ?? 'application/json'
    const res = await t.request(method, url, { token, headers, ...(body ? { raw: body.raw } : {}) })
    if (res.status >= 500) failures.push(`${res.status} ${method} ${url.slice(0, 120)} ${body ? body.raw.slice(0, 60) : ''}`)
    else if (res.status >= 400) {
      const type = res.headers.get('content-type') ?? ''
      if (!type.startsWith('application/problem+json')) failures.push(`${res.status} without a problem body: ${method} ${url.slice(0, 120)}`)
    }
  }

  it('answers hostile path parameters and query strings below 500', async () => {
    for (const op of operations.filter((o) => o.method === 'GET' || o.method === 'DELETE')) {
      if (ENDS_SESSION(op)) continue
      for (const caller of callers) {
        for (const value of PATH_VALUES) await call(op.method, fill(op.path, encodeURIComponent(value).replace(/%25/g, '%')), caller.token)
        for (const query of QUERIES) await call(op.method, fill(op.path, '1') + query, caller.token)
      }
    }
    expect(failures).toEqual([])
  }, 600_000)

  it('answers hostile bodies below 500 on every route that takes one', async () => {
    for (const op of operations.filter((o) => o.method === 'POST' || o.method === 'PUT' || o.method === 'PATCH')) {
      for (const caller of callers) {
        for (const body of BODIES) await call(op.method, fill(op.path, '1'), caller.token, body)
        await call(op.method, fill(op.path, 'abc') + QUERIES[3], caller.token, BODIES[7])
      }
    }
    expect(failures).toEqual([])
  }, 600_000)

  it('answers routes that end the session below 500 too', async () => {
    for (const op of operations.filter(ENDS_SESSION)) {
      for (const caller of callers) await call(op.method, op.path, caller.token, BODIES[0])
    }
    expect(failures).toEqual([])
  })
})
