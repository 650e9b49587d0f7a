import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import { matchedRoutes } from 'hono/route'
import type { ReadRouting } from '@tutoring/adapters'
import type { AppEnv } from './app-env'

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

/** A route as its room mounted it: `GET /api/v1/search`. */
export const routeKey = (method: string, path: string): string => `${method} ${path}`

/** Who the caller is for read-after-write: the token's user, and the address the request came from. */
const callerKeys = (c: Context<AppEnv>): string[] => {
  const user = c.get('user')
  return user ? [`user:${user.id}`, `addr:${c.get('clientAddress')}`] : [`addr:${c.get('clientAddress')}`]
}

/**
 * CONTRACT §16 `DATABASE_READ_URL`: the routes in `replicaRoutes` (the search, availability and
 * reference rooms' reads) read from the replica, unless the caller wrote within
 * `READ_AFTER_WRITE_MS`; every other request, and a write noted as such, stays on the primary.
 * Without a replica this is not mounted at all.
 */
export function readRoutingMiddleware(routing: ReadRouting, replicaRoutes: ReadonlySet<string>) {
  return createMiddleware<AppEnv>(async function readRouting(c, next) {
    if (onReplicaRoute(c, replicaRoutes)) return routing.onReplica(callerKeys(c), next)
    await next()
    if (!SAFE.has(c.req.method) && c.res.status < 400) await routing.noteWrite(callerKeys(c))
  })
}

function onReplicaRoute(c: Context<AppEnv>, replicaRoutes: ReadonlySet<string>): boolean {
  return matchedRoutes(c).some((route) => replicaRoutes.has(routeKey(route.method, route.path)))
}
