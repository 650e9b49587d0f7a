import { timingSafeEqual } from 'node:crypto'
import { isIP } from 'node:net'
import { z } from '@hono/zod-openapi'
import { createMiddleware } from 'hono/factory'
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import { listFailingPayments } from '@tutoring/domain/booking-payments'
import type { Services } from '@tutoring/adapters'
import type { AppEnv } from './app-env'
import { problems } from './problem'
import { mount, problemContent, type App } from './routes'

/** OpenTelemetry's recommended bounds for `http.server.request.duration`, in seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]
/** A request no route matched: one series, whatever the path, so a scan cannot blow up the label set. */
const UNMATCHED = 'unmatched'

export type Metrics = {
  registry: Registry
  /** One finished run of a background job. */
  jobRun(job: string, seconds: number, outcome: 'ok' | 'failed'): void
  requestDuration: Histogram<'method' | 'route' | 'status'>
}

const byServices = new WeakMap<Services, Metrics>()

/**
 * The process's metrics (prom-client), one registry per composition root: the app records
 * requests in it, the background jobs their runs, and the gauges read the database when
 * scraped. Names follow OpenTelemetry's semantic conventions as Prometheus spells them.
 */
export function metricsOf(services: Services): Metrics {
  const known = byServices.get(services)
  if (known) return known
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const requestDuration = new Histogram({
    name: 'http_server_request_duration_seconds',
    help: 'Duration of HTTP server requests, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  })
  const jobRuns = new Counter({ name: 'job_runs_total', help: 'Background job runs, by job and outcome.', labelNames: ['job', 'outcome'] as const, registers: [registry] })
  const jobDuration = new Histogram({ name: 'job_duration_seconds', help: 'Duration of background job runs.', labelNames: ['job'] as const, buckets: DURATION_BUCKETS, registers: [registry] })
  databaseGauges(services, registry)
  const metrics: Metrics = {
    registry,
    requestDuration,
    jobRun(job, seconds, outcome) {
      jobRuns.inc({ job, outcome })
      jobDuration.observe({ job }, seconds)
    },
  }
  byServices.set(services, metrics)
  return metrics
}

/** Read when scraped: the pool, the outbox by state, failing payments. */
function databaseGauges(services: Services, registry: Registry): void {
  const { database, outbox } = services.infra
  const pool = () => database.connections?.() ?? { max: 1, total: 1, idle: 0, pending: 0 }
  new Gauge({
    name: 'db_client_connection_count',
    help: 'Open database connections, by state (idle, used).',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = pool()
      this.set({ state: 'idle' }, stats.idle)
      this.set({ state: 'used' }, stats.total - stats.idle)
    },
  })
  new Gauge({ name: 'db_client_connection_max', help: 'Connections the pool may open.', registers: [registry], collect() { this.set(pool().max) } })
  new Gauge({ name: 'db_client_connection_pending_requests', help: 'Requests waiting for a connection.', registers: [registry], collect() { this.set(pool().pending) } })
  new Gauge({
    name: 'outbox_depth',
    help: 'Undelivered outbox messages, by state (pending, failing).',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const depth = await outbox.depth()
      this.set({ state: 'pending' }, depth.pending)
      this.set({ state: 'failing' }, depth.failing)
    },
  })
  new Gauge({
    name: 'payments_failing',
    help: 'Payments whose due authorisation or capture the processor keeps refusing.',
    registers: [registry],
    async collect() {
      this.set((await listFailingPayments(services.bookings)).length)
    },
  })
}

/** Each registered route's pattern as the document writes it, rewritten once per route (the set is the app's routes). */
const patterns = new Map<string, string>()

/** The route pattern a request matched, as the OpenAPI document writes it (`/api/users/{user}`). */
function routeOf(matched: ReadonlyArray<{ method: string; path: string }>): string {
  const route = matched.findLast((r) => r.method !== 'ALL')
  if (!route) return UNMATCHED
  let pattern = patterns.get(route.path)
  if (pattern === undefined) patterns.set(route.path, (pattern = route.path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}')))
  return pattern
}

/**
 * Records every answer's duration under its route pattern, never the raw path. Observed
 * directly rather than through prom-client's timer, which copies the labels into a fresh
 * object and reads the clock as an array.
 */
export const requestMetrics = (metrics: Metrics) =>
  createMiddleware<AppEnv>(async function requestMetrics(c, next) {
    const started = performance.now()
    try {
      await next()
    } finally {
      const seconds = (performance.now() - started) / 1000
      metrics.requestDuration.observe({ method: c.req.method, route: routeOf(c.req.matchedRoutes), status: String(c.res.status) }, seconds)
    }
  })

const LOOPBACK = /^(?:127\.|::1$|::ffff:127\.)/
const isLoopback = (address: string): boolean => isIP(address) !== 0 && LOOPBACK.test(address)

const sameSecret = (given: string, expected: string): boolean => {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * `GET /metrics` (CONTRACT §16): for the loopback scraper, or anyone with `METRICS_TOKEN` as
 * a bearer token; to everyone else it does not exist (404, as any unknown path).
 */
export function metricsRoutes(app: App, services: Services): void {
  const metrics = metricsOf(services)
  const token = services.infra.config.METRICS_TOKEN
  mount(
    app,
    ['/metrics'],
    {
      method: 'get',
      tags: ['Operations'],
      summary: 'Prometheus metrics',
      description:
        'Prometheus text format 0.0.4, with OpenTelemetry names: `http_server_request_duration_seconds` (histogram by method, route pattern and status; `unmatched` for no route), `db_client_connection_count` (idle, used), `db_client_connection_max`, `db_client_connection_pending_requests`, `outbox_depth` (pending, failing), `payments_failing`, `job_runs_total` (job, outcome), `job_duration_seconds`, and the process metrics. Answered from loopback (the client address as TRUSTED_PROXIES resolves it), or with `Authorization: Bearer` and METRICS_TOKEN; otherwise 404.',
      security: [{}, { bearer: [] }],
      responses: {
        200: { content: { 'text/plain': { schema: z.string() } }, description: 'The metrics' },
        404: problemContent('Not from loopback and without the metrics token'),
      },
    },
    async (c) => {
      const bearer = c.req.header('authorization')?.match(/^Bearer (.+)$/i)?.[1]
      const allowed = isLoopback(c.get('clientAddress')) || (token !== undefined && bearer !== undefined && sameSecret(bearer, token))
      if (!allowed) throw problems.notFound(`No route for GET ${c.req.path}.`)
      return c.text(await metrics.registry.metrics(), 200, { 'content-type': metrics.registry.contentType })
    },
  )
}
