import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from './support/harness'

type Parameter = { name: string; in: string; schema?: { enum?: unknown[]; format?: string } }
type Operation = { parameters?: Parameter[] }
type Document = { paths: Record<string, Record<string, Operation>> }
type Answer = { status: number; code?: string; errors?: Record<string, string[]> }

const UNKNOWN = 'no_such_filter'

/**
 * CONTRACT §17: an unknown query parameter is a 422 `validation_failed` naming it, as an unknown
 * body field is; no filter is ignored silently. Walks every GET of the served OpenAPI document,
 * both families, as the first caller the route lets through (a signed route gets its URL signed).
 */
describe.each(testDatabaseKinds())('unknown query parameters on %s', (kind) => {
  let t: TestContext
  let doc: Document
  let callers: Array<string | undefined>
  beforeAll(async () => {
    t = await createTestContext(kind)
    doc = (await t.request<Document>('GET', '/openapi.json')).body
    const [student, parent, tutor, internal] = await Promise.all([t.register('student'), t.register('parent'), t.register('tutor'), t.internalUser()])
    callers = [internal.token, tutor.token, student.token, parent.token, undefined]
  }, 60_000)
  afterAll(() => t.close())

  const urlOf = (path: string, operation: Operation, query: string) => {
    const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const schema = operation.parameters?.find((p) => p.in === 'path' && p.name === name)?.schema
      return schema?.format === 'uuid' ? '00000000-0000-4000-8000-000000000000' : schema?.enum ? String(schema.enum[0]) : '1'
    })
    return `${filled}?${query}`
  }
  const shutOut = (a: Answer) => a.status === 401 || a.status === 403

  /** The answer of the first caller not shut out, the URL signed when the route is `signed`. */
  async function answerOf(method: string, url: string): Promise<Answer> {
    let answer: Answer = { status: 0 }
    for (const token of callers) {
      const res = await t.request<Answer>(method, url, { token })
      answer = { ...res.body, status: res.status }
      if (answer.code === 'invalid_signature') {
        const signed = await t.request<Answer>(method, t.infra.urlSigner.sign(url, new Date(Date.now() + 3_600_000)), { token })
        answer = { ...signed.body, status: signed.status }
      }
      if (!shutOut(answer)) break
    }
    return answer
  }

  it('answers an unknown query parameter with 422 naming it on every GET route, current and legacy', async () => {
    const gets = Object.entries(doc.paths).flatMap(([path, ops]) => (ops.get ? [{ path, operation: ops.get }] : []))
    expect(gets.some((g) => g.path.startsWith('/api/v1/'))).toBe(true)
    const wrong: string[] = []
    for (const { path, operation } of gets) {
      const answer = await answerOf('GET', urlOf(path, operation, `${UNKNOWN}=1`))
      if (answer.status !== 422 || answer.code !== 'validation_failed' || !answer.errors?.[UNKNOWN]) {
        wrong.push(`GET ${path}: ${answer.status} ${answer.code ?? ''} ${Object.keys(answer.errors ?? {}).join(',')}`)
      }
    }
    expect(wrong).toEqual([])
    expect(gets.length).toBeGreaterThan(60)
  }, 300_000)

  it('refuses the filters a client might guess on lists, and an unknown parameter beside a body', async () => {
    const student = await t.register('student')
    const bookings = await t.request<Answer>('GET', '/api/bookings?state=1', { token: student.token })
    expect([bookings.status, bookings.body.code, bookings.body.errors?.state]).toEqual([422, 'validation_failed', ['is not an accepted field']])
    const subjects = await t.request<Answer>('GET', '/api/v1/subjects?level_id=8', { token: student.token })
    expect([subjects.status, Object.keys(subjects.body.errors ?? {})]).toEqual([422, ['level_id']])
    const card = await t.request<Answer>('POST', `/api/cards?${UNKNOWN}=1`, { token: student.token, body: { payment_method: 'pm_card_visa' } })
    expect([card.status, Object.keys(card.body.errors ?? {})]).toEqual([422, [UNKNOWN]])
    // The documented ones still work.
    expect((await t.request('GET', '/api/v1/subjects?subject_level_id=1&page=1&per_page=5', { token: student.token })).status).toBe(200)
    expect((await t.request('GET', '/api/bookings?page=1', { token: student.token })).status).toBe(200)
  })
})
