import type { Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env'
import { problems } from './problem'

/** CONTRACT §9: JSON bodies of at most 1 MiB. */
export const JSON_LIMIT_BYTES = 1024 * 1024
/** CONTRACT §14: deeper JSON is a 400. */
export const JSON_MAX_DEPTH = 64

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i
export const isJsonType = (contentType: string | undefined): boolean => JSON_TYPE.test(contentType ?? '')
const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(?:;|$)/i
export const isFormType = (contentType: string | undefined): boolean => FORM_TYPE.test(contentType ?? '')

/**
 * Whether the request carries a body, from its headers alone (reading anything else would
 * start the body). `app.request()` in tests sends neither header; its Request knows.
 */
export function declaresBody(c: Context<AppEnv>): boolean {
  const length = c.req.header('content-length')
  if (length !== undefined) return length.trim() !== '0'
  if (c.req.header('transfer-encoding') !== undefined) return true
  return c.env?.incoming === undefined && c.req.raw.body !== null
}

/**
 * Whether JSON text nests arrays and objects deeper than `maxDepth`: one pass over the
 * characters, skipping strings, with a counter instead of recursion, so no text (a million
 * `[`, say) can exhaust the stack here or in a walker after it.
 */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    if (inString) {
      if (ch === 0x5c) i++
      else if (ch === 0x22) inString = false
    } else if (ch === 0x22) inString = true
    else if (ch === 0x7b || ch === 0x5b) {
      if (++depth > maxDepth) return true
    } else if (ch === 0x7d || ch === 0x5d) depth--
  }
  return false
}

const withinJsonLimit = bodyLimit({
  maxSize: JSON_LIMIT_BYTES,
  onError: () => {
    throw problems.payloadTooLarge('A request body may be at most 1 MiB.')
  },
})

/**
 * The first middleware of every route that does not take an upload (mount adds it), so it
 * runs before anything that reads the body (the auth throttle's email, the webhook
 * signature, the Idempotency-Key hash). A body must be JSON (else 400, unread), at most
 * 1 MiB (else 413, unread when announced, at most 1 MiB read when chunked) and nested at
 * most 64 deep (else 400); it is then read once and kept for whoever asks for it.
 */
export const jsonRouteBody = routeBody({ form: false })

/** `jsonRouteBody` for a route that documents a form body too (`POST /api/v1/search`, CONTRACT §17): the same limit, flat text. */
export const jsonOrFormRouteBody = routeBody({ form: true })

function routeBody(takes: { form: boolean }) {
  const expected = takes.form ? 'a JSON (application/json) or form (application/x-www-form-urlencoded) body' : 'a JSON body (application/json)'
  return createMiddleware<AppEnv>(async function routeBody(c, next) {
    if (!declaresBody(c)) return next()
    const type = c.req.header('content-type')
    const form = takes.form && isFormType(type)
    if (!form && !isJsonType(type)) throw problems.malformed(`This route takes ${expected}, or none.`)
    return withinJsonLimit(c, async () => {
      const text = await c.req.text()
      if (!form && nestsDeeperThan(text, JSON_MAX_DEPTH)) throw problems.malformed(`JSON may nest at most ${JSON_MAX_DEPTH} levels deep.`)
      await next()
    })
  })
}
