import { randomBytes } from 'node:crypto'
import { SpanKind } from '@opentelemetry/api'
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { startTracing, type Tracing } from '../src/platform/tracing'
import { createTestContext, type TestContext } from './support/harness'

const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId

/** CONTRACT §16 "Operations": traces of HTTP, PostgreSQL and Redis, continuing the caller's. */
describe.each(testDatabaseKinds())('tracing on %s', (kind) => {
  const exporter = new InMemorySpanExporter()
  let tracing: Tracing
  let t: TestContext
  beforeAll(async () => {
    tracing = startTracing(new SimpleSpanProcessor(exporter))
    t = await createTestContext(kind, process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {})
  })
  afterAll(async () => {
    await t.close()
    await tracing.shutdown()
  })

  it("continues an incoming traceparent with a server span for the request and SQL spans under it", async () => {
    const traceId = randomBytes(16).toString('hex')
    const callerSpanId = randomBytes(8).toString('hex')
    exporter.reset()
    const res = await t.request('POST', '/api/auth/login', {
      body: { email: 'nobody@example.com', password: 'not the password' },
      headers: { traceparent: `00-${traceId}-${callerSpanId}-01` },
    })
    expect(res.status).toBe(401)
    const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId)
    const server = spans.find((s) => s.kind === SpanKind.SERVER)
    expect(server?.name).toBe('POST /api/auth/login')
    expect(parentOf(server!)).toBe(callerSpanId)
    expect(server!.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/api/auth/login', 'http.response.status_code': 401 })
    const sql = spans.filter((s) => s.kind === SpanKind.CLIENT && s.attributes['db.system.name'] === 'postgresql')
    expect(sql.length).toBeGreaterThan(0)
    const ids = new Set(spans.map((s) => s.spanContext().spanId))
    for (const span of sql) {
      expect(ids.has(parentOf(span)!), span.name).toBe(true)
      expect(String(span.attributes['db.query.text'])).toMatch(/^(select|insert|update|delete|with|begin|commit)/i)
    }
    if (process.env.REDIS_URL) {
      expect(spans.some((s) => s.kind === SpanKind.CLIENT && s.attributes['db.system.name'] === 'redis')).toBe(true)
    }
  })

  it('starts a trace of its own without a traceparent', async () => {
    exporter.reset()
    await t.request('GET', '/healthz')
    const server = exporter.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER)
    expect(server?.name).toBe('GET /healthz')
    expect(parentOf(server!)).toBeUndefined()
  })
})
