import { createHash } from 'node:crypto'
import { etag } from 'hono/etag'

/** Hono's default goes through WebCrypto, an async thread-pool job per answer; a plain hash is cheaper. */
const sha1 = (body: Uint8Array): ArrayBuffer => {
  const digest = createHash('sha1').update(body).digest()
  return digest.buffer.slice(digest.byteOffset, digest.byteOffset + digest.byteLength) as ArrayBuffer
}

/**
 * ETag and 304 (CONTRACT §9). JSON answers arrive already tagged (jsonResponses); this
 * answers If-None-Match with a 304 and tags whatever else a GET returns. Headers every
 * answer carries (request id, CORS, rate limits) are added outside it, so the 304 keeps them.
 */
export const entityTags = () => etag({ generateDigest: sha1 })
