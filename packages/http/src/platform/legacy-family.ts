import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env'
import { addAnswerHeader } from './answer-headers'
import { patternOf } from './errors'
import type { App } from './routes'

const LEGACY = '/api/v1/'
const CURRENT = '/api/'


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
  return createMiddleware<AppEnv>(async function legacyFamily(c, next) {
    if (!c.req.path.startsWith(LEGACY)) return next()
    current ??= currentRoutes(app)
    addAnswerHeader(c, 'deprecation', 'true')
    const successor = CURRENT + c.req.path.slice(LEGACY.length)
    const method = c.req.method === 'HEAD' ? 'GET' : c.req.method
    if (current.get(method)?.some((route) => route.test(successor))) addAnswerHeader(c, 'link', `<${successor}>; rel="successor-version"`)
    return next()
  })
}
