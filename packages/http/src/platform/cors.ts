import { cors } from 'hono/cors'

/** CORS_TRUSTED_ORIGINS match exactly; CORS_WHITELIST entries match as substrings. */
export function corsPolicy(trusted: readonly string[], whitelist: readonly string[]) {
  return cors({
    origin: (origin) => {
      if (!origin) return null
      if (trusted.includes(origin)) return origin
      return whitelist.some((part) => origin.includes(part)) ? origin : null
    },
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'If-None-Match', 'X-Request-Id'],
    exposeHeaders: ['ETag', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'X-Request-Id', 'Location'],
    maxAge: 600,
  })
}
