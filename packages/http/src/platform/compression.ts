import { deflateSync, gzipSync } from 'node:zlib'
import type { Context } from 'hono'
import { compress } from 'hono/compress'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env'
import { completed, partsOf } from './answer-headers'

const THRESHOLD_BYTES = 1024
/** JSON (answers, problems, the document) and the docs page's HTML, scripts and styles; never stored files. */
const COMPRESSIBLE = /^(?:application\/(?:json|problem\+json|javascript)|text\/(?:html|css|javascript))\b/i
/** The encodings hono/compress offers. */
const OFFERED = /\b(?:gzip|deflate|\*)\b/i

const zip = compress({ threshold: THRESHOLD_BYTES, contentTypeFilter: COMPRESSIBLE })

/**
 * Our answers are built from strings, so they carry no Content-Length, and hono/compress
 * compresses whatever has none, however small. A compressible answer is measured first:
 * read into bytes and given its length, which the Node adapter would set anyway.
 */
async function measure(c: Context<AppEnv>): Promise<void> {
  const answer = c.res
  if (answer.body === null || answer.headers.has('content-length') || !COMPRESSIBLE.test(answer.headers.get('content-type') ?? '')) return
  const bytes = await answer.arrayBuffer()
  const measured = new Response(bytes, answer)
  measured.headers.set('content-length', String(bytes.byteLength))
  c.res = measured
}

const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/i
const VARIES_BY_ENCODING = /(?:^|,)\s*accept-encoding\s*(?:,|$)/i

/**
 * The encoding hono/compress would choose for an Accept-Encoding without q-values (all at 1):
 * gzip when named or `*`, else deflate when named. With q-values, undefined: hono decides.
 */
const plainChoice = (accepted: string): 'gzip' | 'deflate' | undefined => {
  if (accepted.includes(';')) return undefined
  const named = accepted.toLowerCase().split(',').map((s) => s.trim())
  if (named.includes('gzip') || named.includes('*')) return 'gzip'
  return named.includes('deflate') ? 'deflate' : undefined
}

/**
 * A complete JSON answer (answer-headers.ts: its text at hand, its headers a plain object)
 * compressed in one call, and answered complete again, so the Node adapter writes head and
 * body at once: what hono/compress does to it (the same encoding, Vary, a weak ETag), without
 * reading it back through a stream and compressing through another, which cost a booking's
 * answer more than its handler's own work. Undefined when the answer is not of that kind.
 */
function compressedAtOnce(c: Context<AppEnv>, encoding: 'gzip' | 'deflate'): Response | undefined {
  const parts = partsOf(c.res)
  if (!parts || typeof parts.body !== 'string' || parts.status === 206) return undefined
  const { headers } = parts
  if (headers['content-encoding'] !== undefined || headers['transfer-encoding'] !== undefined || !COMPRESSIBLE.test(headers['content-type'] ?? '')) return undefined
  if (NO_TRANSFORM.test(headers['cache-control'] ?? '')) return undefined
  if (Buffer.byteLength(parts.body) < THRESHOLD_BYTES) return undefined
  const vary = headers['vary']
  const out: Record<string, string> = { ...headers, 'content-encoding': encoding }
  if (vary !== '*' && !(vary !== undefined && VARIES_BY_ENCODING.test(vary))) out['vary'] = vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding'
  const etag = headers['etag']
  if (etag !== undefined && !etag.startsWith('W/')) out['etag'] = `W/${etag}`
  return completed(encoding === 'gzip' ? gzipSync(parts.body) : deflateSync(parts.body), parts.status, out)
}

/**
 * CONTRACT §16 "the wire": JSON and the docs assets above 1 KiB are compressed (gzip, or
 * deflate) when the request's Accept-Encoding allows it, by hono/compress. A request that
 * accepts neither is passed straight through: its answer is the identity encoding anyway.
 */
export const compression = createMiddleware<AppEnv>(async function compression(c, next) {
  const accepted = c.req.header('accept-encoding') ?? ''
  if (c.req.method === 'HEAD' || !OFFERED.test(accepted)) return next()
  await next()
  const choice = plainChoice(accepted)
  const atOnce = choice && compressedAtOnce(c, choice)
  if (atOnce) {
    // Unset first: Hono copies the headers of the answer it replaces onto the new one.
    c.res = undefined
    c.res = atOnce
    return
  }
  await zip(c, () => measure(c))
})
