import { createHash, timingSafeEqual } from 'node:crypto'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from './app-env'
import { problems } from './problem'

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest()

/**
 * Constant-time equality of two secrets. Both are hashed first, so the buffers compared
 * are always 32 bytes: neither the content nor the length of the expected token leaks
 * through timing.
 */
export const tokensMatch = (given: string, expected: string): boolean => timingSafeEqual(digest(given), digest(expected))

/**
 * A webhook authenticated by a shared token in a header (CONTRACT.md §8). Without a
 * configured token every call is refused: an unconfigured receiver must not accept
 * anyone's events. Runs before the body is read, so nothing about it leaks either.
 */
export function webhookToken(header: string, expected: string | undefined) {
  return createMiddleware<AppEnv>(async function webhookToken(c, next) {
    const given = c.req.header(header)
    if (!expected) throw problems.invalidSignature(400, 'This webhook receiver is not configured.')
    if (!given) throw problems.invalidSignature(400, `The ${header} header is missing.`)
    if (!tokensMatch(given, expected)) throw problems.invalidSignature(400, `The ${header} header is wrong.`)
    await next()
  })
}
