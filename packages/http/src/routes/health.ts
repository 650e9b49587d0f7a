import { z } from '@hono/zod-openapi'
import { Problem } from '../platform/problem'
import { jsonContent, mount, problemContent, type App } from '../platform/routes'
import type { Services } from '@tutoring/adapters'

const Status = z.object({ data: z.object({ status: z.enum(['ok']) }) })

export function healthRoutes(app: App, services: Services): void {
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
      summary: 'The database answers',
      responses: { 200: jsonContent(Status, 'Ready'), 503: problemContent('Database unreachable') },
    },
    async (c) => {
      await services.infra.pingDatabase().catch(() => {
        throw new Problem(503, 'service_unavailable', 'Service unavailable', 'The database does not answer.')
      })
      return c.json({ data: { status: 'ok' as const } }, 200)
    },
  )
}
