import { z } from '@hono/zod-openapi'
import { createMiddleware } from 'hono/factory'
import { verifyStripeSignature } from '@tutoring/adapters'
import type { Clock } from '@tutoring/domain/shared'
import type { AppEnv } from './app-env'
import { problems } from './problem'

export const STRIPE_SIGNATURE_HEADER = 'Stripe-Signature'

/** The header, as the webhook routes document it. */
export const signatureHeaders = z.object({
  'stripe-signature': z.string().optional().openapi({ description: '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`' }),
})

/**
 * A processor webhook (CONTRACT.md §8): `Stripe-Signature` checked against the raw body,
 * exactly as received, with this receiver's signing secret and a 300 s tolerance. Without a
 * configured secret every call is refused. The body is read once here; Hono keeps it for
 * the JSON validation that follows.
 */
export function stripeSignature(secret: string | undefined, clock: Clock) {
  return createMiddleware<AppEnv>(async function stripeSignature(c, next) {
    if (!secret) throw problems.invalidSignature(400, 'This webhook receiver is not configured.')
    const payload = await c.req.text()
    const check = verifyStripeSignature(payload, c.req.header(STRIPE_SIGNATURE_HEADER), secret, clock.now().getTime())
    if (!check.valid) throw problems.invalidSignature(400, check.reason)
    await next()
  })
}
