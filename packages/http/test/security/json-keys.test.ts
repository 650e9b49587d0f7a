import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from '../support/harness'
import { recordFinding, Tally } from '../support/findings'

/** Names every plain object inherits: a lookup by one of them finds something unless the code treats keys as data. */
const INHERITED_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf']

type Operation = { method: string; path: string }

const fill = (path: string) => path.replace(/\{[^}]+\}/g, '1')

/**
 * CONTRACT §15: JSON keys are data. A body key named like a property of Object.prototype is an
 * unknown field like any other (422 `validation_failed` naming it), on every JSON route, never a 500.
 */
describe.each(testDatabaseKinds())('JSON keys named like inherited properties, on %s', (kind) => {
  let t: TestContext
  let operations: Operation[]
  let callers: Array<string | undefined>
  beforeAll(async () => {
    t = await createTestContext(kind)
    type Doc = { paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>> }
    const doc = (await t.request<Doc>('GET', '/openapi.json')).body
    operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.requestBody?.content?.['application/json'] !== undefined)
        .map(([method]) => ({ method: method.toUpperCase(), path })),
    )
    const student = await t.register('student')
    const tutor = await t.register('tutor')
    const internal = await t.internalUser()
    callers = [undefined, student.token, tutor.token, internal.token]
  }, 60_000)
  afterAll(() => t.close())

  it('answers every JSON route below 500 whatever the key', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'Input: JSON keys named like inherited properties',
      tried: `${INHERITED_NAMES.join(', ')} as body keys on every JSON route, by each role`,
      held: 'below 500 everywhere; 422 validation_failed naming the key where the body is read',
    })
    const tally = new Tally()
    const failures: string[] = []
    for (const op of operations.filter((o) => !(o.path === '/api/auth' || o.path.endsWith('/logout')))) {
      for (const token of callers) {
        for (const key of INHERITED_NAMES) {
          const res = tally.send(await t.request(op.method, fill(op.path), { token, raw: `{"${key}": 1}`, headers: { 'content-type': 'application/json' } }))
          if (res.status >= 500) failures.push(`${res.status} ${op.method} ${op.path} ${key}`)
        }
      }
    }
    finding.figures = { requests: tally.requests }
    expect(failures).toEqual([])
  }, 600_000)

  it.each(INHERITED_NAMES)('refuses %s as an unknown field of registration, login and a booking', async (key) => {
    const student = await t.register('student')
    const register = { email: `keys.${key}@example.com`, password: 'correct horse battery', firstname: 'A', lastname: 'B', role: 'student', country: 'GB' }
    const cases: Array<{ method: string; path: string; body: Record<string, unknown>; token?: string }> = [
      { method: 'POST', path: '/api/auth/register', body: register },
      { method: 'POST', path: '/api/auth/login', body: { email: 'a@example.com', password: 'whatever pass' } },
      { method: 'POST', path: '/api/bookings', body: {}, token: student.token },
      { method: 'POST', path: '/api/v1/search', body: {} },
    ]
    for (const c of cases) {
      const raw = JSON.stringify(c.body).replace(/^\{/, `{"${key}": {"a": 1}${Object.keys(c.body).length > 0 ? ',' : ''}`)
      const res = await t.request<{ code: string; errors: Record<string, string[]> }>(c.method, c.path, { token: c.token, raw, headers: { 'content-type': 'application/json' } })
      expect(res.status, `${c.path} ${res.text}`).toBe(422)
      expect(res.body.code).toBe('validation_failed')
      expect(Object.hasOwn(res.body.errors, key), `${c.path} ${res.text}`).toBe(true)
      expect(res.body.errors[key]).toEqual(['is not an accepted field'])
    }
  })
})
