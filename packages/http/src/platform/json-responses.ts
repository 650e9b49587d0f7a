import { hash } from 'node:crypto'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env'
import { completeAnswer } from './answer-headers'

const JSON_TYPE = 'application/json; charset=utf-8'
const TAGGED_METHODS = new Set(['GET', 'HEAD'])

type JsonArgs = [object: unknown, arg?: number | ResponseInit, headers?: Record<string, string>]

/**
 * A JSON body serialised and tagged once, for answers that stay the same across many
 * requests (reference lists: see reference-answers.ts). `c.json` answers it exactly as it
 * answers the object it was made from, without stringifying and hashing it again.
 */
export class PreparedJson {
  readonly text: string
  readonly tag: string
  readonly #object: unknown
  constructor(object: unknown) {
    this.#object = object
    this.text = JSON.stringify(object)
    this.tag = entityTag(this.text)
  }

  /** Without this middleware (an app of a test's own), Hono's `c.json` still serialises the object. */
  toJSON(): unknown {
    return this.#object
  }
}

const entityTag = (text: string): string => `"${hash('sha1', text, 'base64url')}"`

const statusOf = (arg: JsonArgs[1]): number => (typeof arg === 'number' ? arg : (arg?.status ?? 200))

/** Whether If-None-Match names `tag` (hono/etag's rule: any quoted tag, weak or strong, or `*`). */
const matches = (tag: string, ifNoneMatch: string | undefined): boolean =>
  ifNoneMatch === '*' || (ifNoneMatch?.match(/"[^"]*"/g)?.includes(tag) ?? false)

/**
 * Every `c.json` answer, in one place: CONTRACT §1's `application/json; charset=utf-8`, and
 * for a successful GET or HEAD an ETag hashed from the text as it is serialised, and the
 * 304 when If-None-Match names it. Tagging here, rather than by reading the finished
 * response back, keeps the body a plain string the Node adapter writes in one go (reading
 * it back costs several times the whole request). An answer the handler gave only a status
 * is built complete (see answer-headers.ts); one it added headers of its own to, by
 * argument or `c.header`, is built by Hono and tagged the same way, and its 304 left to
 * `entityTags`, which also tags whatever else a GET returns.
 */
export const jsonResponses = createMiddleware<AppEnv>(async function jsonResponses(c, next) {
  const { body, header } = c
  let ownHeaders = false
  c.header = ((...args: Parameters<typeof header>) => {
    ownHeaders = true
    header(...args)
  }) as typeof c.header
  c.json = ((...[object, arg, headers]: JsonArgs) => {
    const prepared = object instanceof PreparedJson ? object : undefined
    const text = prepared?.text ?? JSON.stringify(object)
    const status = statusOf(arg)
    const tag = TAGGED_METHODS.has(c.req.method) && status >= 200 && status < 300 ? (prepared?.tag ?? entityTag(text)) : undefined
    if (typeof arg === 'number' && headers === undefined && !ownHeaders) {
      if (tag === undefined) return completeAnswer(c, text, status, { 'content-type': JSON_TYPE })
      if (matches(tag, c.req.header('if-none-match'))) return completeAnswer(c, null, 304, { etag: tag })
      return completeAnswer(c, text, status, { 'content-type': JSON_TYPE, etag: tag })
    }
    header('content-type', JSON_TYPE)
    if (tag !== undefined) header('etag', tag)
    return body(text, arg as never, headers)
  }) as unknown as typeof c.json
  await next()
})
