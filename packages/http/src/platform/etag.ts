import { createHash } from 'node:crypto'
import { createMiddleware } from 'hono/factory'
import { etag } from 'hono/etag'
import type { AppEnv } from './app-env'
import { isCompleteAnswer } from './answer-headers'

/** Hono's default goes through WebCrypto, an async thread-pool job per answer; a plain hash is cheaper. */
const sha1 = (body: Uint8Array): ArrayBuffer => {
  const digest = createHash('sha1').update(body).digest()
  return digest.buffer.slice(digest.byteOffset, digest.byteOffset + digest.byteLength) as ArrayBuffer
}

const tagAndCompare = etag({ generateDigest: sha1 })
const nothingMore = async () => undefined

/**
 * ETag and 304 (CONTRACT §9) of what `jsonResponses` has not already answered: a JSON
 * answer built complete there carries its tag and was compared with If-None-Match there,
 * and reading its headers back here would rebuild them. Whatever else a GET returns goes
 * through hono/etag once the handler has answered: it answers 304 or tags the answer.
 * Headers every answer carries (request id, CORS, rate limits) are added outside it, so
 * the 304 keeps them.
 */
export const entityTags = () =>
  createMiddleware<AppEnv>(async function entityTags(c, next) {
    await next()
    if (!isCompleteAnswer(c.res)) await tagAndCompare(c, nothingMore)
  })
