import { createHash } from 'node:crypto'
import { z } from '@hono/zod-openapi'
import { createMiddleware } from 'hono/factory'
import type { Services } from '@tutoring/adapters'
import type { AppEnv } from './app-env'
import { problems } from './problem'

const KEY = /^[\x21-\x7e]{1,255}$/

/** For the document: what every route with this middleware promises. */
export const IDEMPOTENCY_DESCRIPTION =
  'Accepts an `Idempotency-Key` header (1..255 visible ASCII characters, per user): a repeat with the same key and body answers the first answer again (header `Idempotent-Replayed: true`) and changes nothing; with another body 422 `idempotency_key_reused`; while the first is still running 409 `idempotency_key_in_flight`. Keys are kept 48 hours. An unexpected failure (5xx) forgets the key, so a retry runs afresh; a first request unfinished after 120 s is taken as dead and its key may be reused by the repeat.'

/** The header, for the document (the middleware reads it). */
export const idempotencyHeaders = z.object({
  'idempotency-key': z.string().min(1).max(255).optional().openapi({ description: 'Makes a repeat of this POST safe (see the description).', example: 'b7a1c1e0-booking-42' }),
})

/**
 * CONTRACT §6: replays of mutating POSTs. Runs after authentication (keys are per user) and
 * before the body parser. The claim commits before the handler runs, so a concurrent repeat
 * sees it in flight; the answer (anything below 500) is stored when the handler finishes.
 */
export function idempotent(services: Services) {
  const store = services.infra.idempotency
  return createMiddleware<AppEnv>(async function idempotent(c, next) {
    const key = c.req.header('idempotency-key')
    const user = c.get('user')
    if (key === undefined || !user) return next()
    if (!KEY.test(key)) throw problems.validation({ 'Idempotency-Key': ['must be 1 to 255 visible ASCII characters'] })
    const body = await c.req.text()
    const hash = createHash('sha256').update(`${c.req.method} ${c.req.path}\n`).update(body).digest('hex')
    const now = services.infra.clock.now()
    const claim = await store.claim(user.id, key, hash, now)
    if (claim.kind === 'reused') throw problems.idempotencyKeyReused()
    if (claim.kind === 'in_flight') throw problems.idempotencyKeyInFlight()
    if (claim.kind === 'replay') {
      c.header('idempotent-replayed', 'true')
      return c.json(claim.body as object, claim.status as 200)
    }
    try {
      await next()
    } catch (error) {
      await store.release(user.id, key)
      throw error
    }
    if (c.res.status >= 500) {
      await store.release(user.id, key)
      return
    }
    const text = await c.res.clone().text()
    let stored: unknown = null
    try {
      stored = text ? JSON.parse(text) : null
    } catch {
      stored = { raw: text }
    }
    await store.complete(user.id, key, c.res.status, stored, services.infra.clock.now())
  })
}
