import type { DevicePlatform } from '../profiles'

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
