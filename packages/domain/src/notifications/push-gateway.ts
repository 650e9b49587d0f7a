import { z } from 'zod'
import type { DevicePlatform } from '../profiles'

/**
 * What a web device's `push_token` holds: the browser's PushSubscription as JSON
 * (`JSON.stringify(subscription)`), since Web Push needs the endpoint and both keys.
 * `p256dh` is the browser's P-256 public key (65 bytes uncompressed), `auth` its 16-byte
 * secret, both base64url.
 */
export const WebPushSubscriptionSchema = z.object({
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

/** One app install as a push provider addresses it. */
export type PushDevice = { platform: DevicePlatform; token: string }

export type PushNotification = {
  title: string
  body: string
  /** Handed to the app with the notification; providers carry string values only. */
  data: Record<string, string>
  /** How long the provider keeps trying an unreachable device before dropping the message. */
  ttlSeconds: number
}

/**
 * `sent`: the provider accepted the message (its id, when it gives one). `gone`: the provider
 * says the token will never work again (uninstalled, unsubscribed, expired), so the device
 * is forgotten. A provider that cannot be reached or refuses for now throws, to be retried.
 */
export type PushOutcome = { outcome: 'sent'; providerMessageId: string | null } | { outcome: 'gone'; reason: string }

/** Delivers one notification to one device through the provider its platform uses. */
export interface PushGateway {
  send(device: PushDevice, notification: PushNotification): Promise<PushOutcome>
}
