import { createMiddleware } from 'hono/factory'
import { addAnswerHeader } from './answer-headers'
import type { AppEnv } from './app-env'

const ALLOW_METHODS = 'GET,HEAD,POST,PUT,PATCH,DELETE,OPTIONS'
const ALLOW_HEADERS = 'Authorization,Content-Type,Idempotency-Key,If-None-Match,X-Request-Id'
const EXPOSE_HEADERS = 'ETag,RateLimit,RateLimit-Policy,Retry-After,X-Request-Id,Location'
const MAX_AGE_SECONDS = '600'

/**
 * CORS (CONTRACT §9): CORS_TRUSTED_ORIGINS match exactly; CORS_WHITELIST entries match as
 * substrings. Written here rather than with `hono/cors` because that one touches the
 * response before the handler runs, which makes the Node adapter rebuild every answer as
 * a stream; this one only adds answer headers (see answer-headers.ts).
 */
export function corsPolicy(trusted: readonly string[], whitelist: readonly string[]) {
  const allowed = (origin: string): boolean => trusted.includes(origin) || whitelist.some((part) => origin.includes(part))
  return createMiddleware<AppEnv>(async function corsPolicy(c, next) {
    const origin = c.req.header('origin')
    const permitted = origin !== undefined && allowed(origin)
    if (c.req.method === 'OPTIONS') {
      const headers: Record<string, string> = { vary: 'Origin, Access-Control-Request-Headers' }
      if (permitted) {
        Object.assign(headers, {
          'access-control-allow-origin': origin,
          'access-control-allow-methods': ALLOW_METHODS,
          'access-control-allow-headers': ALLOW_HEADERS,
          'access-control-max-age': MAX_AGE_SECONDS,
        })
      }
      return c.body(null, 204, headers)
    }
    addAnswerHeader(c, 'vary', 'Origin')
    if (permitted) {
      addAnswerHeader(c, 'access-control-allow-origin', origin)
      addAnswerHeader(c, 'access-control-expose-headers', EXPOSE_HEADERS)
    }
    return next()
  })
}
