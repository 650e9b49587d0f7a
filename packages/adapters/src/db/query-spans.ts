import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import type { LogEvent } from 'kysely'

/**
 * Asked for at each span, not once at load: the SDK registers itself through the API's
 * CommonJS copy, and a tracer taken earlier from this (ESM) copy would stay a no-op.
 */
const tracer = () => trace.getTracer('@tutoring/adapters/db')

let recording = false

/**
 * Whether spans are made at all: switched on by the server when it registers tracing, so a
 * process without it spends nothing per query (or per Redis command) on them.
 */
export const recordSpans = (on: boolean): void => {
  recording = on
}
export const recordingSpans = (): boolean => recording

/** `select`, `insert`, ...: the statement's first word after any leading comment (a prepared statement's mark), as OpenTelemetry's `db.operation.name`. */
const operationOf = (text: string): string => /^\s*(?:\/\*.*?\*\/\s*)?(\w+)/s.exec(text)?.[1]?.toLowerCase() ?? 'query'

/**
 * Kysely's query log as OpenTelemetry client spans: one per statement, under whatever span
 * is active (the request's, a job's), on the embedded database and the server alike. The
 * text is the parameterised SQL, so no value reaches a trace.
 */
export function querySpan(event: LogEvent): void {
  if (!recording) return
  const end = performance.timeOrigin + performance.now()
  const text = event.query.sql
  const operation = operationOf(text)
  const span = tracer().startSpan(operation, {
    kind: SpanKind.CLIENT,
    startTime: end - event.queryDurationMillis,
    attributes: { 'db.system.name': 'postgresql', 'db.operation.name': operation, 'db.query.text': text },
  })
  if (event.level === 'error') {
    span.recordException(event.error instanceof Error ? event.error : String(event.error))
    span.setStatus({ code: SpanStatusCode.ERROR })
  }
  span.end(end)
}
