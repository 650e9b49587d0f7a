import { hkdfSync } from 'node:crypto'

/** One APP_KEY, one independent sub-key per purpose, so no two mechanisms share a key. */
export const deriveKey = (appKey: Buffer, purpose: 'url-signature' | 'secret-box'): Buffer =>
  Buffer.from(hkdfSync('sha256', appKey, Buffer.alloc(0), `tutoring:${purpose}`, 32))
