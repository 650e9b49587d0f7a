import { randomUUID } from 'node:crypto'
import { createMiddleware } from 'hono/factory'
import { addAnswerHeader } from './answer-headers'
import type { AppEnv } from './app-env'

/** What a client may choose as its own request id; anything else gets a fresh one. */
const ACCEPTABLE = /^[\w\-=.:]{1,255}$/

/**
 * The request id of every log line and every answer (`X-Request-Id`). It is one of the
 * answer headers, so it reaches handlers and the not-found handler that build their
 * `Response` directly, and the 304 that replaces an answer.
 */
export const requestIds = createMiddleware<AppEnv>(async function requestIds(c, next) {
  const offered = c.req.header('x-request-id')
  const id = offered && ACCEPTABLE.test(offered) ? offered : randomUUID()
  c.set('requestId', id)
  addAnswerHeader(c, 'x-request-id', id)
  return next()
})
