import { createRoute, type OpenAPIHono, type RouteConfig, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from './app-env'

export type RouteSpec = Omit<RouteConfig, 'path'>
export type App = OpenAPIHono<AppEnv>
export type Handler<R extends RouteSpec> = RouteHandler<R & { path: string }, AppEnv>

/**
 * One route definition served at each of its paths, so the current and the legacy family
 * share the schema, the documentation and the handler.
 */
export function mount<const R extends RouteSpec>(app: App, paths: readonly string[], route: R, handler: Handler<R>): void {
  for (const path of paths) {
    app.openapi(createRoute({ ...route, path }), handler as never)
  }
}

export const jsonContent = <S>(schema: S, description: string) => ({
  content: { 'application/json': { schema } },
  description,
})

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

export const bearer = [{ bearer: [] }]
