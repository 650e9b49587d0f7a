import { SpanKind } from '@opentelemetry/api'
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { startTracing, type Tracing } from '../src/platform/tracing'
import { createTestContext, type TestContext } from './support/harness'

const HOUR = 3_600_000

/**
 * What booking one slot costs the database, counted from the SQL spans of the request (issue
 * 20): every statement the booking's request sends, begin and commit included.
 */
describe.each(testDatabaseKinds())('booking statements on %s', (kind) => {
  const exporter = new InMemorySpanExporter()
  let tracing: Tracing
  let t: TestContext
  beforeAll(async () => {
    tracing = startTracing(new SimpleSpanProcessor(exporter))
    t = await createTestContext(kind)
  })
  afterAll(async () => {
    await t.close()
    await tracing.shutdown()
  })

  it('books an online slot in at most 9 statements, one transaction, none after the commit', async () => {
    const tutor = await t.bookableTutor()
    const { teachId, levelId } = await t.openOnlineTeach(tutor, '25.00')
    const student = await t.register('student')
    const start = new Date(Math.ceil(Date.now() / HOUR) * HOUR + 2 * 24 * HOUR)
    const body = { teach_id: teachId, subject_level_id: levelId, lesson_type: 3, start: start.toISOString(), finish: new Date(start.getTime() + HOUR).toISOString() }
    exporter.reset()
    const res = await t.request('POST', '/api/bookings', { token: student.token, body })
    expect(res.status, res.text).toBe(201)
    const spans = exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.CLIENT && s.attributes['db.system.name'] === 'postgresql')
    const statements = spans.map((s) => String(s.attributes['db.query.text']).trim())
    // A prepared statement's span is named by its first word too, not by its mark.
    expect(spans.map((s) => s.name)).toEqual(statements.map((s) => /(begin|commit|select|insert|with)/i.exec(s)![1]!.toLowerCase()))
    // Before issue 20: 15 (the teach, the slot facts before the locks; the unpaid count and the
    // lapsed holds apart; lesson, booking, event, integration event and deliveries apart).
    expect(statements.filter((s) => /^begin/i.test(s)), statements.join('\n')).toHaveLength(1)
    expect(statements.filter((s) => /^commit/i.test(s)), statements.join('\n')).toHaveLength(1)
    // The answer is built from what the checks read (issue 20): nothing after the commit.
    expect(statements.at(-1), statements.join('\n')).toMatch(/^commit/i)
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(9)
  })
})
