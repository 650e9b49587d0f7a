import { createRoute, z, type OpenAPIHono, type RouteConfig, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from './app-env'
import type { Services } from '@tutoring/adapters'
import { jsonRouteBody } from './request-body'

export type RouteSpec = Omit<RouteConfig, 'path'>
export type App = OpenAPIHono<AppEnv>
export type Handler<R extends RouteSpec> = RouteHandler<R & { path: string }, AppEnv>
/** A route group: what a context's room gives app.ts (its index.ts's `routes`). */
export type Routes = (app: App, services: Services) => void

/** A room's route groups as one, mounted in the order given. */
export const routeGroups =
  (...groups: readonly Routes[]): Routes =>
  (app, services) => {
    for (const group of groups) group(app, services)
  }

/**
 * One route definition served at each of its paths, so the current and the legacy family
 * share the schema, the documentation and the handler. Which bodies a route takes is
 * decided here, by its definition, never by the request's headers: a route documented with
 * a multipart body is an upload and reads its own; every other route gets `jsonRouteBody`
 * first, before any middleware of its own can read a body. Its query string is held to the
 * names it documents (`strictQuery`).
 */
export function mount<const R extends RouteSpec>(app: App, paths: readonly string[], route: R, handler: Handler<R>): void {
  const own = route.middleware === undefined ? [] : Array.isArray(route.middleware) ? route.middleware : [route.middleware]
  const middleware = isUpload(route) ? own : [jsonRouteBody, ...own]
  const request = { ...route.request, query: strictQuery(route) }
  for (const path of paths) {
    app.openapi(createRoute({ ...route, request, path, middleware }), handler as never)
  }
}

/**
 * CONTRACT §17: an unknown query parameter is a 422 naming it, as an unknown body field is,
 * on every route, so no filter a client guesses (`/api/bookings?state=1`) is ignored
 * silently. Decided here once: a route's query schema is made strict, and a route that
 * documents none takes none.
 */
function strictQuery(route: RouteSpec): z.ZodObject {
  const query = route.request?.query
  if (query === undefined) return z.strictObject({})
  if (query instanceof z.ZodObject) return query.strict()
  throw new Error(`a query schema must be an object, to be held to its names: ${route.method} ${route.summary ?? ''}`)
}

const isUpload = (route: RouteSpec): boolean => {
  const body = route.request?.body
  return body !== undefined && 'multipart/form-data' in (body.content ?? {})
}

export const jsonContent = <S>(schema: S, description: string) => ({
  content: { 'application/json': { schema } },
  description,
})

/** A required JSON body of `schema`, as a route's `request`. */
export const jsonRequest = <S>(schema: S) => ({ body: { content: { 'application/json': { schema } }, required: true } })

export const problemContent = (description: string) => ({
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  description,
})

/** The error answers most routes can give, for the document. */
export const commonProblems = {
  401: problemContent('Unauthenticated'),
  403: problemContent('Forbidden'),
  404: problemContent('Not found'),
  422: problemContent('Validation failed'),
  429: problemContent('Too many requests'),
} as const

/** Routes that call the payment processor while the client waits. */
export const processorProblems = {
  503: problemContent(
    '`processor_unavailable`: the payment processor timed out, was rate limited or failed after retries (each with the same idempotency key). Nothing was done twice; retry after `Retry-After` seconds, with the same `Idempotency-Key` where the route takes one.',
  ),
} as const

export const bearer = [{ bearer: [] }]
