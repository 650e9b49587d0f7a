import type { Context, Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { ProcessorUnavailable, type Logger } from '@tutoring/adapters'
import type { AppEnv } from './app-env'
import { Problem, problems } from './problem'

/** The one place a thrown error becomes an answer. Unknown errors are logged, never shown. */
export function renderError(logger: Logger) {
  return (error: Error, c: Context<AppEnv>): Response => {
    const problem = toProblem(error)
    if (error instanceof ProcessorUnavailable) {
      // An outage of theirs, not a bug of ours: one line, no stack.
      logger.warn({ reqId: c.get('requestId'), path: c.req.path, err: error.message }, 'payment processor unavailable')
    } else if (problem.status >= 500) {
      logger.error({ reqId: c.get('requestId'), err: error, path: c.req.path }, 'unhandled error')
    }
    return problem.toResponse()
  }
}

function toProblem(error: Error): Problem {
  if (error instanceof Problem) return error
  if (error instanceof ProcessorUnavailable) return problems.processorUnavailable()
  if (error instanceof HTTPException) {
    if (error.status === 413) return problems.payloadTooLarge('The request body is too large.')
    if (error.status === 400) return problems.malformed(error.message || 'The request could not be read.')
    // The route validator's media-type gate: a body type the route does not document (CONTRACT §2: 400).
    if (error.status === 415) return problems.malformed('This route does not take a body of that content type.')
    if (error.status === 401) return problems.unauthenticated()
    if (error.status === 404) return problems.notFound()
  }
  return problems.internal()
}

type RouteEntry = { method: string; pattern: RegExp }

/** 404 for unknown paths; 405 with `Allow` for a known path asked with another method. */
export function notFoundOrMethodNotAllowed(app: Hono<AppEnv>) {
  let table: RouteEntry[] | undefined
  const routes = () =>
    (table ??= app.routes
      .filter((r) => r.method !== 'ALL')
      .map((r) => ({ method: r.method, pattern: patternOf(r.path) })))
  return (c: Context<AppEnv>): Response => {
    const allowed = new Set(routes().filter((r) => r.pattern.test(c.req.path)).map((r) => r.method))
    if (allowed.size > 0) {
      if (allowed.has('GET')) allowed.add('HEAD')
      return problems.methodNotAllowed([...allowed].sort()).toResponse()
    }
    return problems.notFound(`No route for ${c.req.method} ${c.req.path}.`).toResponse()
  }
}

/** A Hono route path as a test of a concrete path (`/api/users/:user` matches `/api/users/42`). */
export function patternOf(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => {
      if (segment === '*') return '.*'
      if (segment.startsWith(':')) {
        const custom = /\{(.+)\}$/.exec(segment)
        return custom ? `(?:${custom[1]})` : '[^/]+'
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    })
    .join('/')
  return new RegExp(`^${source}/?$`)
}
