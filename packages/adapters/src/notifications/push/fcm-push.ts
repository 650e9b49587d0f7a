import { SignJWT, importPKCS8 } from 'jose'
import type { PushDevice, PushGateway, PushNotification, PushOutcome } from '@tutoring/domain/notifications'
import type { Logger } from '../../logger'
import type { ServiceAccount } from './service-account'

export const FCM_API_BASE = 'https://fcm.googleapis.com'
export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging'
/** Google accepts assertions valid for at most an hour. */
const ASSERTION_SECONDS = 3600
/** A cached access token is replaced this long before it expires, so none expires in flight. */
const REFRESH_MARGIN_MS = 5 * 60_000

export type FcmOptions = {
  account: ServiceAccount
  projectId: string
  /** A local stand-in's base URL in tests; FCM's own otherwise. */
  apiBase?: string
  timeoutMs: number
  logger: Logger
  now?: () => Date
}

type CachedToken = { value: string; expiresAt: number }

/**
 * Firebase Cloud Messaging HTTP v1 for `ios` and `android` tokens. The OAuth2 access token
 * comes from the service account's signed JWT (RS256, RFC 7523 bearer grant at the key's
 * `token_uri`) and is reused until shortly before it expires; one refresh at a time.
 */
export function fcmPushGateway(options: FcmOptions): PushGateway {
  const now = options.now ?? (() => new Date())
  const apiBase = (options.apiBase ?? FCM_API_BASE).replace(/\/$/, '')
  const sendUrl = `${apiBase}/v1/projects/${encodeURIComponent(options.projectId)}/messages:send`
  let signingKey: ReturnType<typeof importPKCS8> | undefined
  let cached: CachedToken | undefined
  let refreshing: Promise<CachedToken> | undefined

  const fetchToken = async (): Promise<CachedToken> => {
    signingKey ??= importPKCS8(options.account.privateKey, 'RS256')
    const issuedAt = Math.floor(now().getTime() / 1000)
    const assertion = await new SignJWT({ scope: FCM_SCOPE })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(options.account.privateKeyId ? { kid: options.account.privateKeyId } : {}) })
      .setIssuer(options.account.clientEmail)
      .setAudience(options.account.tokenUri)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ASSERTION_SECONDS)
      .sign(await signingKey)
    const response = await fetch(options.account.tokenUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
      signal: AbortSignal.timeout(options.timeoutMs),
    })
    const body = (await response.json().catch(() => ({}))) as { access_token?: string; expires_in?: number; error?: string; error_description?: string }
    if (!response.ok || !body.access_token) {
      throw new Error(`FCM token exchange failed (${response.status}): ${body.error ?? ''} ${body.error_description ?? ''}`.trim())
    }
    return { value: body.access_token, expiresAt: now().getTime() + Number(body.expires_in ?? 3600) * 1000 }
  }

  const accessToken = async (): Promise<string> => {
    if (cached && now().getTime() < cached.expiresAt - REFRESH_MARGIN_MS) return cached.value
    refreshing ??= fetchToken().finally(() => {
      refreshing = undefined
    })
    cached = await refreshing
    return cached.value
  }

  const post = async (device: PushDevice, notification: PushNotification) =>
    fetch(sendUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${await accessToken()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: fcmMessage(device.token, notification, now()) }),
      signal: AbortSignal.timeout(options.timeoutMs),
    })

  return {
    async send(device, notification): Promise<PushOutcome> {
      let response = await post(device, notification)
      if (response.status === 401) {
        // Revoked or expired early: one fresh token, then the answer stands.
        await response.body?.cancel()
        cached = undefined
        response = await post(device, notification)
      }
      const body = (await response.json().catch(() => ({}))) as FcmAnswer
      if (response.ok) return { outcome: 'sent', providerMessageId: body.name ?? null }
      const gone = goneReason(response.status, body)
      if (gone) {
        options.logger.info({ platform: device.platform, reason: gone }, 'FCM token gone')
        return { outcome: 'gone', reason: gone }
      }
      throw new Error(`FCM refused the message (${response.status} ${body.error?.status ?? ''}): ${body.error?.message ?? ''}`.trim())
    },
  }
}

type FcmAnswer = {
  name?: string
  error?: {
    code?: number
    status?: string
    message?: string
    details?: { '@type'?: string; errorCode?: string; fieldViolations?: { field?: string }[] }[]
  }
}

/**
 * Why a token will never work again, or undefined when the failure may pass. FCM says
 * `UNREGISTERED` (404) for an uninstalled app or an expired token, and a 400 naming the
 * `message.token` field for a string that was never a token.
 */
function goneReason(status: number, body: FcmAnswer): string | undefined {
  const details = body.error?.details ?? []
  if (details.some((d) => d.errorCode === 'UNREGISTERED') || (status === 404 && body.error?.status === 'NOT_FOUND')) return 'UNREGISTERED'
  if (status === 400 && details.some((d) => d.fieldViolations?.some((v) => v.field === 'message.token'))) return 'INVALID_TOKEN'
  return undefined
}

/** The v1 message: a visible notification, string data, and the TTL in each platform's terms. */
export function fcmMessage(token: string, notification: PushNotification, now: Date) {
  return {
    token,
    notification: { title: notification.title, body: notification.body },
    data: notification.data,
    android: { ttl: `${notification.ttlSeconds}s`, priority: 'high' },
    apns: { headers: { 'apns-expiration': String(Math.floor(now.getTime() / 1000) + notification.ttlSeconds) } },
  }
}
