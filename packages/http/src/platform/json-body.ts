import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env'
import { problems } from './problem'
import { declaresBody, isJsonType } from './request-body'

/**
 * Routes with a JSON body: any other content type, or text that is not JSON, is a 400
 * before validation, so a 422 always means "valid JSON, wrong fields". Size and depth were
 * checked before anything read the body (`jsonRouteBody`).
 */
export const jsonBody = createMiddleware<AppEnv>(async function jsonBody(c, next) {
  if (!isJsonType(c.req.header('content-type'))) throw problems.malformed('Send the body as application/json.')
  let body: unknown
  try {
    body = await c.req.json()
  } catch {
    throw problems.malformed('The body is not valid JSON.')
  }
  refuseNul(body)
  await next()
})

/** A 422 naming every field of `body` (a value or a key) that holds U+0000. */
export function refuseNul(body: unknown): void {
  const withNul = pathsWithNul(body)
  if (withNul.length > 0) {
    throw problems.validation(Object.fromEntries(withNul.map((path) => [path, ['must not contain NUL characters']])))
  }
}

/**
 * Routes whose JSON body is optional (CONTRACT §17: `POST /api/subscriptions` takes an empty
 * body): a body that is there is held to `jsonBody`'s rules; a blank one is no body at all,
 * whatever type it claims (`fetch` labels an empty string `text/plain`), so the validator
 * takes `{}`. The route documents its body as not required.
 */
export const optionalJsonBody = createMiddleware<AppEnv>(async function optionalJsonBody(c, next) {
  if (declaresBody(c) && (await c.req.text()).trim() !== '') return jsonBody(c, next)
  const headers = new Headers(c.req.raw.headers)
  headers.delete('content-type')
  headers.delete('content-length')
  c.req.raw = new Request(c.req.raw.url, { method: c.req.raw.method, headers, signal: c.req.raw.signal })
  await next()
})

/**
 * PostgreSQL text cannot hold U+0000, so a NUL anywhere in a JSON body (value or key) is
 * refused here, once for every route, instead of failing in the database. Recursion is
 * safe: the body nests at most 64 deep.
 */
function pathsWithNul(value: unknown, path: string[] = []): string[] {
  const here = path.length > 0 ? path.join('.') : 'body'
  if (typeof value === 'string') return value.includes('\u0000') ? [here] : []
  if (Array.isArray(value)) return value.flatMap((item, i) => pathsWithNul(item, [...path, String(i)]))
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) =>
      key.includes('\u0000') ? [here] : pathsWithNul(item, [...path, key]),
    )
  }
  return []
}
