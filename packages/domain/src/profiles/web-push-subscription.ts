import { z } from 'zod'

/**
 * What a web device's `push_token` holds: the browser's PushSubscription as JSON
 * (`JSON.stringify(subscription)`), since Web Push needs the endpoint and both keys.
 * `p256dh` is the browser's P-256 public key (65 bytes uncompressed), `auth` its 16-byte
 * secret, both base64url.
 */
const WebPushSubscriptionSchema = z.object({
  endpoint: z.url({ protocol: /^https$/ }).max(2048),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    p256dh: z.string().regex(/^[A-Za-z0-9_-]{86,88}={0,2}$/, 'must be a base64url P-256 public key'),
    auth: z.string().regex(/^[A-Za-z0-9_-]{22,24}={0,2}$/, 'must be a base64url 16-byte secret'),
  }),
})
export type WebPushSubscription = z.infer<typeof WebPushSubscriptionSchema>

/** A web device's token read back as its subscription; undefined when it is not one. */
export function parseWebPushSubscription(token: string): WebPushSubscription | undefined {
  let json: unknown
  try {
    json = JSON.parse(token)
  } catch {
    return undefined
  }
  const parsed = WebPushSubscriptionSchema.safeParse(json)
  return parsed.success ? parsed.data : undefined
}
