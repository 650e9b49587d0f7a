import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env'
import { addAnswerHeader } from './answer-headers'
import { patternOf } from './errors'
import type { App } from './routes'

const LEGACY = '/api/v1/'
const CURRENT = '/api/'
const PATHS_KEPT = 1024

/** The current family's routes by method, read from the app once every room has mounted. */
function currentRoutes(app: App): Map<string, RegExp[]> {
  const byMethod = new Map<string, RegExp[]>()
  for (const { method, path } of app.routes) {
    // Middleware is registered as ALL; only a route of that method is a successor.
    if (method === 'ALL' || !path.startsWith(CURRENT) || path.startsWith(LEGACY)) continue
    byMethod.set(method, [...(byMethod.get(method) ?? []), patternOf(path)])
  }
  return byMethod
}

/**
 * CONTRACT §16: every answer of the legacy family says `Deprecation: true` and, where the
 * current family serves the same request (same method, the path without `/v1`), links it as
 * the successor (RFC 8594's `successor-version`). The current routes are read on the first
 * legacy request, when every room has mounted.
 */
export function legacyFamily(app: App) {
  let current: Map<string, RegExp[]> | undefined
  // Whether a method and path has a successor, as found: testing every current route's pattern
  // on each request showed in the search profile. Emptied when full, since paths hold ids.
  const found = new Map<string, boolean>()
  const hasSuccessor = (method: string, successor: string): boolean => {
    const key = `${method} ${successor}`
    let known = found.get(key)
    if (known === undefined) {
      current ??= currentRoutes(app)
      if (found.size >= PATHS_KEPT) found.clear()
      found.set(key, (known = current.get(method)?.some((route) => route.test(successor)) ?? false))
    }
    return known
  }
  return createMiddleware<AppEnv>(async function legacyFamily(c, next) {
    if (!c.req.path.startsWith(LEGACY)) return next()
    addAnswerHeader(c, 'deprecation', 'true')
    const successor = CURRENT + c.req.path.slice(LEGACY.length)
    if (hasSuccessor(c.req.method === 'HEAD' ? 'GET' : c.req.method, successor)) addAnswerHeader(c, 'link', `<${successor}>; rel="successor-version"`)
    return next()
  })
}
