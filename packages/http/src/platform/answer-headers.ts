import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env'

/**
 * CONTRACT §9's security headers: what `hono/secure-headers` set with our options (HSTS for
 * two years, frame denial, nosniff, X-XSS-Protection, and its defaults besides). A fresh
 * object from a literal each time: V8 builds that in nanoseconds, where copying a shared
 * object and adding to the copy takes microseconds.
 */
const securityHeaders = (): Record<string, string> => ({
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=63072000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '1; mode=block',
})

/** What a complete answer was built of: its body as given, its status and its plain headers. */
export type AnswerParts = { body: string | Uint8Array | null; status: number; headers: Record<string, string> }

/** Answers built with the request's answer headers already in them (see `completeAnswer`), with their parts. */
const complete = new WeakMap<Response, AnswerParts>()

/** Adds a header every answer to this request carries, whoever builds the answer. */
export function addAnswerHeader(c: Context<AppEnv>, name: string, value: string): void {
  c.get('answerHeaders').set(name, value)
}

/**
 * An answer carrying the request's answer headers from the start, beside its own. Its
 * headers stay a plain object, which the Node adapter writes as it is: a `Headers` object,
 * which editing a finished answer creates, validates every name and value on each edit
 * and is sorted again when written. Called by the handler, after every middleware has
 * added its headers.
 */
export function completeAnswer(c: Context<AppEnv>, body: string | null, status: number, own: Record<string, string>): Response {
  const headers = securityHeaders()
  for (const [name, value] of c.get('answerHeaders')) headers[name] = value
  for (const name in own) headers[name] = own[name]!
  return completed(body, status, headers)
}

/** A complete answer of these parts (`headers` already holding the request's answer headers). */
export function completed(body: AnswerParts['body'], status: number, headers: Record<string, string>): Response {
  // The Node adapter writes a string or a Uint8Array (a Buffer too) as it is.
  const answer = new Response(body as ConstructorParameters<typeof Response>[0], { status, headers })
  complete.set(answer, { body, status, headers })
  return answer
}

export const isCompleteAnswer = (answer: Response): boolean => complete.has(answer)

/** The parts of a complete answer, to build another from them without reading it back; undefined for any other. */
export const partsOf = (answer: Response): AnswerParts | undefined => complete.get(answer)

/**
 * Gathers the headers of every answer (request id, security, CORS, rate limit) as the
 * middleware after it learns them, and puts them on an answer built without them: an
 * error, a 304 of another kind of body, a handler's own `Response`, the not-found answer.
 * Set on the finished answer, they replace a handler's own; Vary is added to.
 */
export const answerHeaders = createMiddleware<AppEnv>(async function answerHeaders(c, next) {
  const headers = new Map<string, string>()
  c.set('answerHeaders', headers)
  await next()
  if (!complete.has(c.res)) addTo(c.res.headers, headers)
})

/** Set over the answer's own, except Vary, which is added to. */
function addTo(target: Headers, headers: Map<string, string>): void {
  for (const [name, value] of Object.entries(securityHeaders())) target.set(name, value)
  for (const [name, value] of headers) {
    if (name !== 'vary') target.set(name, value)
    else if (!varies(target.get('vary'), value)) target.append(name, value)
  }
  target.delete('x-powered-by')
}

/** Whether a Vary value names `field` already (an answer rebuilt from a complete one carries it). */
const varies = (vary: string | null, field: string): boolean => vary !== null && vary.split(',').some((f) => f.trim().toLowerCase() === field.toLowerCase())
