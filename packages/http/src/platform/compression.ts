import type { Context } from 'hono'
import { compress } from 'hono/compress'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env'

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

/**
 * CONTRACT §16 "the wire": JSON and the docs assets above 1 KiB are compressed (gzip, or
 * deflate) when the request's Accept-Encoding allows it, by hono/compress. A request that
 * accepts neither is passed straight through: its answer is the identity encoding anyway.
 */
export const compression = createMiddleware<AppEnv>(async function compression(c, next) {
  if (c.req.method === 'HEAD' || !OFFERED.test(c.req.header('accept-encoding') ?? '')) return next()
  await zip(c, async () => {
    await next()
    await measure(c)
  })
})
