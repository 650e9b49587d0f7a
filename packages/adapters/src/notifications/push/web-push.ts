import { Agent } from 'node:https'
import { isIP } from 'node:net'
import webpush from 'web-push'
import type { PushGateway, PushOutcome } from '@tutoring/domain/notifications'
import { parseWebPushSubscription } from '@tutoring/domain/profiles'
import { BlockedAddress, guardedLookup, type AddressPolicy } from '../../net'
import type { Logger } from '../../logger'

export type VapidKeys = {
  /** The application server key browsers subscribed with (base64url, uncompressed P-256 point). */
  publicKey: string
  privateKey: string
  /** `mailto:` or `https:` contact the push service may use. */
  subject: string
}

export type WebPushOptions = {
  vapid: VapidKeys
  timeoutMs: number
  logger: Logger
  /** Which addresses an endpoint may resolve to: the endpoint is the user's to choose. */
  policy: AddressPolicy
  /** Extra trusted certificate (a local stand-in's); the system's CAs otherwise. */
  ca?: string
}

/**
 * Web Push (RFC 8030) with VAPID (RFC 8292) through `web-push`: the payload encrypted as
 * aes128gcm (RFC 8291) to the subscription's keys, a TTL, a VAPID JWT signed per audience.
 * The endpoint came from a browser a user controls, so the connection is made only to
 * public addresses (the calendar feeds' guard); an endpoint that can never be reached is gone.
 */
export function webPushGateway(options: WebPushOptions): PushGateway {
  const agent = new Agent({ lookup: guardedLookup(options.policy), ...(options.ca ? { ca: options.ca } : {}) })
  const vapidDetails = options.vapid
  return {
    async send(device, notification): Promise<PushOutcome> {
      const subscription = parseWebPushSubscription(device.token)
      if (!subscription) return { outcome: 'gone', reason: 'not a PushSubscription' }
      const host = new URL(subscription.endpoint).hostname.replace(/^\[|\]$/g, '')
      // IP literals never reach the agent's lookup.
      if (isIP(host) !== 0 && !options.policy.allow(host)) return { outcome: 'gone', reason: 'endpoint is not a public address' }
      const payload = JSON.stringify({ title: notification.title, body: notification.body, data: notification.data })
      try {
        const answer = await webpush.sendNotification({ endpoint: subscription.endpoint, keys: subscription.keys }, payload, {
          vapidDetails,
          TTL: notification.ttlSeconds,
          contentEncoding: 'aes128gcm',
          urgency: 'normal',
          timeout: options.timeoutMs,
          agent,
        })
        const location = answer.headers.location
        return { outcome: 'sent', providerMessageId: typeof location === 'string' ? location : null }
      } catch (error) {
        if (error instanceof webpush.WebPushError && (error.statusCode === 404 || error.statusCode === 410)) {
          options.logger.info({ status: error.statusCode }, 'web push subscription gone')
          return { outcome: 'gone', reason: `HTTP ${error.statusCode}` }
        }
        if (error instanceof BlockedAddress) return { outcome: 'gone', reason: 'endpoint is not a public address' }
        if (error instanceof webpush.WebPushError) throw new Error(`web push endpoint answered ${error.statusCode}: ${error.body}`)
        throw error
      }
    },
  }
}
