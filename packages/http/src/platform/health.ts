import { z } from '@hono/zod-openapi'
import type { Lifecycle } from './lifecycle'
import { Problem } from './problem'
import { jsonContent, mount, problemContent, type App } from './routes'
import type { Services } from '@tutoring/adapters'

const CheckStatus = z.enum(['up', 'down'])
const Checks = z
  .object({
    database: CheckStatus,
    redis: CheckStatus.optional().openapi({ description: 'Only with REDIS_URL. Down is not fatal: throttle counters and caches fall back to each process.' }),
    replica: CheckStatus.optional().openapi({
      description: 'Only with DATABASE_READ_URL: `down` while the replica does not answer or lags beyond READ_REPLICA_MAX_LAG_MS. Not fatal: its reads go to the primary.',
    }),
  })
  .openapi('DependencyChecks')
const Status = z.object({ data: z.object({ status: z.enum(['ok']) }) })
const Ready = z.object({
  data: z.object({
    status: z.enum(['ok', 'degraded']).openapi({ description: '`degraded` while Redis or the read replica is down: the service still answers, each instance counting alone, every read on the primary.' }),
    checks: Checks,
  }),
})

const PING_TIMEOUT_MS = 2_000

/** Whether `ping` answers within the timeout. */
async function check(ping: () => Promise<void>): Promise<'up' | 'down'> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<'down'>((resolve) => {
    timer = setTimeout(() => resolve('down'), PING_TIMEOUT_MS)
  })
  try {
    return await Promise.race([ping().then(() => 'up' as const, () => 'down' as const), timeout])
  } finally {
    clearTimeout(timer)
  }
}

export function healthRoutes(app: App, services: Services, lifecycle: Lifecycle): void {
  const { infra } = services
  mount(
    app,
    ['/healthz'],
    { method: 'get', tags: ['Operations'], summary: 'The process is up', responses: { 200: jsonContent(Status, 'Up') } },
    (c) => c.json({ data: { status: 'ok' as const } }, 200),
  )
  mount(
    app,
    ['/readyz'],
    {
      method: 'get',
      tags: ['Operations'],
      summary: 'Ready for traffic: each dependency checked',
      description:
        '200 while the database answers (`status: degraded` when Redis or the read replica, configured but down, is not). 503 `service_unavailable` while the database does not answer or the server is shutting down, with the same `checks` beside the problem fields.',
      responses: { 200: jsonContent(Ready, 'Ready'), 503: problemContent('Database unreachable, or shutting down') },
    },
    async (c) => {
      const [database, redis] = await Promise.all([check(infra.pingDatabase), infra.redis ? check(infra.pingRedis) : undefined])
      const replica = infra.readRouting ? (infra.readRouting.monitor.usable() ? ('up' as const) : ('down' as const)) : undefined
      const checks = { database, ...(redis ? { redis } : {}), ...(replica ? { replica } : {}) }
      if (lifecycle.draining || database === 'down') {
        const detail = lifecycle.draining ? 'The server is shutting down.' : 'The database does not answer.'
        throw new Problem(503, 'service_unavailable', 'Service unavailable', detail, undefined, {}, { checks })
      }
      const degraded = redis === 'down' || replica === 'down'
      return c.json({ data: { status: degraded ? ('degraded' as const) : ('ok' as const), checks } }, 200)
    },
  )
}
