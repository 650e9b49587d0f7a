import { createHash } from 'node:crypto'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env'

const JSON_TYPE = 'application/json; charset=utf-8'
const TAGGED_METHODS = new Set(['GET', 'HEAD'])

type JsonArgs = [object: unknown, arg?: number | ResponseInit, headers?: Record<string, string>]

const statusOf = (arg: JsonArgs[1]): number => (typeof arg === 'number' ? arg : (arg?.status ?? 200))

/**
 * Every `c.json` answer, in one place: CONTRACT §1's `application/json; charset=utf-8`, and
 * for a successful GET or HEAD an ETag hashed from the text as it is serialised. Tagging
 * here, rather than by reading the finished response back, keeps the body a plain string
 * the Node adapter writes in one go (reading it back costs several times the whole request).
 * The `entityTags` middleware answers 304 and tags whatever else a GET returns.
 */
export const jsonResponses = createMiddleware<AppEnv>(async function jsonResponses(c, next) {
  const body = c.body
  c.json = ((...[object, arg, headers]: JsonArgs) => {
    const text = JSON.stringify(object)
    c.header('content-type', JSON_TYPE)
    const status = statusOf(arg)
    if (TAGGED_METHODS.has(c.req.method) && status >= 200 && status < 300) {
      c.header('etag', `"${createHash('sha1').update(text).digest('base64url')}"`)
    }
    return body(text, arg as never, headers)
  }) as unknown as typeof c.json
  await next()
})
