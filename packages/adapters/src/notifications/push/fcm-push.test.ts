import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { PushNotification } from '@tutoring/domain/notifications'
import { createLogger } from '../../logger'
import { startFcmStandIn, type FcmStandIn } from '../../testing/fcm-stand-in'
import { fcmPushGateway } from './fcm-push'
import { loadServiceAccount } from './service-account'

const logger = createLogger('silent')
const TOKEN = 'fcm-token-aaaaaaaaaaaaaaaaaaaaaaaa:APA91b'
const note: PushNotification = { title: 'New note', body: 'Your tutor wrote a summary', data: { bookingId: '42' }, ttlSeconds: 3600 }

let fcm: FcmStandIn
beforeAll(async () => {
  fcm = await startFcmStandIn()
})
afterAll(() => fcm.close())
beforeEach(() => {
  fcm.grants.length = 0
  fcm.refusedGrants.length = 0
  fcm.received.length = 0
})

async function gateway(now: () => Date = () => new Date()) {
  const account = await loadServiceAccount({ json: fcm.serviceAccountJson })
  return fcmPushGateway({ account, projectId: fcm.projectId, apiBase: fcm.url, timeoutMs: 2_000, logger, now })
}

describe('FCM HTTP v1 against the stand-in', () => {
  it("sends a notification with string data and each platform's TTL, authorised by the service account's signed JWT", async () => {
    const at = new Date()
    const outcome = await (await gateway(() => at)).send({ platform: 'android', token: TOKEN }, note)
    expect(outcome).toEqual({ outcome: 'sent', providerMessageId: expect.stringMatching(/^projects\/tutoring-test\/messages\//) })
    expect(fcm.refusedGrants).toEqual([])
    expect(fcm.grants).toHaveLength(1)
    const { claims, kid } = fcm.grants[0]!
    expect(claims).toMatchObject({
      iss: `push-sender@tutoring-test.iam.gserviceaccount.com`,
      aud: `${fcm.url}/token`,
      scope: 'https://www.googleapis.com/auth/firebase.messaging',
    })
    expect(Number(claims.exp) - Number(claims.iat)).toBe(3600)
    expect(kid).toBe(JSON.parse(fcm.serviceAccountJson).private_key_id)
    expect(fcm.received).toHaveLength(1)
    expect(fcm.received[0]!.message).toEqual({
      token: TOKEN,
      notification: { title: 'New note', body: 'Your tutor wrote a summary' },
      data: { bookingId: '42' },
      android: { ttl: '3600s', priority: 'high' },
      apns: { headers: { 'apns-expiration': String(Math.floor(at.getTime() / 1000) + 3600) } },
    })
  })

  it('reuses one access token until shortly before it expires, then asks for a new one', async () => {
    let now = new Date()
    const push = await gateway(() => now)
    for (let i = 0; i < 3; i++) await push.send({ platform: 'ios', token: TOKEN }, note)
    expect(fcm.grants).toHaveLength(1)
    expect(new Set(fcm.received.map((r) => r.accessToken)).size).toBe(1)
    // 3599 s of life, replaced 5 minutes early.
    now = new Date(now.getTime() + 3599_000 - 5 * 60_000 - 1_000)
    await push.send({ platform: 'ios', token: TOKEN }, note)
    expect(fcm.grants).toHaveLength(1)
    now = new Date(now.getTime() + 2_000)
    await push.send({ platform: 'ios', token: TOKEN }, note)
    expect(fcm.grants).toHaveLength(2)
    expect(fcm.received.at(-1)!.accessToken).toBe(fcm.grants[1]!.accessToken)
  })

  it('asks for one token however many sends start at once', async () => {
    const push = await gateway()
    await Promise.all(Array.from({ length: 5 }, () => push.send({ platform: 'android', token: TOKEN }, note)))
    expect(fcm.grants).toHaveLength(1)
    expect(fcm.received).toHaveLength(5)
  })

  it('gets a fresh token once when FCM refuses the cached one', async () => {
    const push = await gateway()
    await push.send({ platform: 'android', token: TOKEN }, note)
    fcm.revokeAccessTokens()
    expect((await push.send({ platform: 'android', token: TOKEN }, note)).outcome).toBe('sent')
    expect(fcm.grants).toHaveLength(2)
  })

  it('reports an UNREGISTERED token, and a string that was never a token, as gone', async () => {
    const push = await gateway()
    const uninstalled = 'fcm-token-uninstalled-bbbbbbbbbbbbbbbb'
    fcm.unregister(uninstalled)
    expect(await push.send({ platform: 'ios', token: uninstalled }, note)).toEqual({ outcome: 'gone', reason: 'UNREGISTERED' })
    expect(await push.send({ platform: 'ios', token: 'nope' }, note)).toEqual({ outcome: 'gone', reason: 'INVALID_TOKEN' })
    expect(fcm.received).toEqual([])
  })

  it('throws when FCM is unavailable, so the outbox retries', async () => {
    const push = await gateway()
    fcm.failNext(1)
    await expect(push.send({ platform: 'android', token: TOKEN }, note)).rejects.toThrow(/503 UNAVAILABLE/)
    expect((await push.send({ platform: 'android', token: TOKEN }, note)).outcome).toBe('sent')
  })

  it('throws when the token endpoint refuses the assertion (another key)', async () => {
    const other = await startFcmStandIn()
    try {
      // The other stand-in's key, this stand-in's token_uri: the signature cannot verify.
      const account = { ...(await loadServiceAccount({ json: other.serviceAccountJson })), clientEmail: 'push-sender@tutoring-test.iam.gserviceaccount.com', tokenUri: `${fcm.url}/token` }
      const push = fcmPushGateway({ account, projectId: fcm.projectId, apiBase: fcm.url, timeoutMs: 2_000, logger })
      await expect(push.send({ platform: 'android', token: TOKEN }, note)).rejects.toThrow(/token exchange failed \(400\): invalid_grant/)
      expect(fcm.refusedGrants).toEqual([expect.stringMatching(/signature verification failed/)])
    } finally {
      await other.close()
    }
  })
})

describe('service account keys', () => {
  it('reads the fields FCM needs, with Google token_uri by default', async () => {
    const json = JSON.parse(fcm.serviceAccountJson) as Record<string, string>
    delete json.token_uri
    const account = await loadServiceAccount({ json: JSON.stringify(json) })
    expect(account).toMatchObject({ projectId: 'tutoring-test', tokenUri: 'https://oauth2.googleapis.com/token', clientEmail: json.client_email })
  })

  it('refuses a key without its private key or email', async () => {
    await expect(loadServiceAccount({ json: '{"type":"service_account"}' })).rejects.toThrow(/private_key, client_email/)
    await expect(loadServiceAccount({ json: 'nope' })).rejects.toThrow(/not JSON/)
  })
})
