import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env'
import { problems } from './problem'

/**
 * A URL whose path or query decodes to a NUL, or does not decode at all, can reach no
 * record: refuse it once here rather than let the database choke on it later. Without a
 * `%` there is nothing to decode (a raw NUL or control character never gets this far: Node's
 * parser refuses it, and a `Request` percent-encodes it), so most URLs are not parsed here.
 */
export const urlGuard = createMiddleware<AppEnv>(async function urlGuard(c, next) {
  if (!c.req.url.includes('%')) return next()
  const url = new URL(c.req.url)
  let decoded: string
  try {
    decoded = decodeURIComponent(url.pathname) + decodeURIComponent(url.search.replace(/\+/g, ' '))
  } catch {
    throw problems.malformed('The URL is not valid percent-encoding.')
  }
  if (decoded.includes('\u0000')) throw problems.malformed('The URL must not contain NUL characters.')
  await next()
})
