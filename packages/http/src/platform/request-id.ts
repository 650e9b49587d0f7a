import { randomUUID } from 'node:crypto'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env'

/** What a client may choose as its own request id; anything else gets a fresh one. */
const ACCEPTABLE = /^[\w\-=.:]{1,255}$/

/**
 * The request id of every log line and every answer (`X-Request-Id`). It is put on the
 * finished response, not prepared beforehand, so it survives handlers and the not-found
 * handler that build their `Response` directly, and the 304 that replaces an answer.
 */
export const requestIds = createMiddleware<AppEnv>(async function requestIds(c, next) {
  const offered = c.req.header('x-request-id')
  const id = offered && ACCEPTABLE.test(offered) ? offered : randomUUID()
  c.set('requestId', id)
  await next()
  c.res.headers.set('x-request-id', id)
})
