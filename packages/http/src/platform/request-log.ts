import { createMiddleware } from 'hono/factory'
import type { Logger } from '@tutoring/adapters'
import type { AppEnv } from './app-env'

/** One line per request, carrying the request id that the response also carries. */
export function requestLog(logger: Logger) {
  return createMiddleware<AppEnv>(async function requestLog(c, next) {
    const started = performance.now()
    await next()
    logger.info(
      {
        reqId: c.get('requestId'),
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        userId: c.get('user')?.id,
      },
      'request',
    )
  })
}
