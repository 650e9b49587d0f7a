import webpush from 'web-push'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { PushNotification } from '@tutoring/domain/notifications'
import { publicAddressesOnly, systemResolver, type AddressPolicy } from '../../net'
import { createLogger } from '../../logger'
import { startWebPushStandIn, type WebPushStandIn } from '../../testing/web-push-stand-in'
import { webPushGateway, type VapidKeys } from './web-push'

const logger = createLogger('silent')
const loopbackAllowed: AddressPolicy = { allow: (address) => address === '127.0.0.1', resolve: systemResolver }
const note: PushNotification = { title: 'New note', body: 'Your tutor wrote a summary', data: { bookingId: '42', kind: 'note' }, ttlSeconds: 7200 }

let endpoint: WebPushStandIn
let vapid: VapidKeys
beforeAll(async () => {
  endpoint = await startWebPushStandIn()
  vapid = { ...webpush.generateVAPIDKeys(), subject: 'mailto:push@tutoring.test' }
})
afterAll(() => endpoint.close())
beforeEach(() => {
  endpoint.received.length = 0
  endpoint.refused.length = 0
})

const gateway = (keys: VapidKeys = vapid, policy: AddressPolicy = loopbackAllowed) =>
  webPushGateway({ vapid: keys, timeoutMs: 2_000, logger, policy, ca: endpoint.ca })
const device = (subscription: unknown) => ({ platform: 'web' as const, token: JSON.stringify(subscription) })

describe('Web Push with VAPID against a local push service', () => {
  it('delivers an aes128gcm payload the browser keys decrypt, with its TTL and a VAPID JWT for the endpoint origin', async () => {
    const { id, subscription } = endpoint.subscribe(vapid.publicKey)
    const outcome = await gateway().send(device(subscription), note)
    expect(endpoint.refused).toEqual([])
    expect(outcome).toEqual({ outcome: 'sent', providerMessageId: `${endpoint.origin}/messages/${endpoint.received[0]!.messageId}` })
    const [got] = endpoint.received
    expect(got).toMatchObject({ subscriptionId: id, ttl: 7200, urgency: 'normal', vapid: { subject: 'mailto:push@tutoring.test', audience: endpoint.origin } })
    expect(got!.vapid.expiresAt).toBeLessThanOrEqual(Date.now() / 1000 + 24 * 3600)
    expect(JSON.parse(got!.payload)).toEqual({ title: 'New note', body: 'Your tutor wrote a summary', data: { bookingId: '42', kind: 'note' } })
  })

  it('is refused when signed with keys other than those the browser subscribed with', async () => {
    const { subscription } = endpoint.subscribe(vapid.publicKey)
    const stranger = { ...webpush.generateVAPIDKeys(), subject: 'mailto:push@tutoring.test' }
    await expect(gateway(stranger).send(device(subscription), note)).rejects.toThrow(/web push endpoint answered 403/)
    expect(endpoint.received).toEqual([])
  })

  it('reports an unsubscribed (410) or unknown (404) endpoint as gone', async () => {
    const { id, subscription } = endpoint.subscribe(vapid.publicKey)
    endpoint.unsubscribe(id)
    expect(await gateway().send(device(subscription), note)).toEqual({ outcome: 'gone', reason: 'HTTP 410' })
    const unknown = { ...subscription, endpoint: `${endpoint.origin}/push/nobody` }
    expect(await gateway().send(device(unknown), note)).toEqual({ outcome: 'gone', reason: 'HTTP 404' })
  })

  it('reports a token that is no PushSubscription as gone, without a request', async () => {
    expect(await gateway().send({ platform: 'web', token: 'fcm-style-token' }, note)).toEqual({ outcome: 'gone', reason: 'not a PushSubscription' })
    expect(endpoint.refused).toEqual([])
  })

  it('never connects to a private address: such an endpoint is gone', async () => {
    const { subscription } = endpoint.subscribe(vapid.publicKey)
    expect(await gateway(vapid, publicAddressesOnly).send(device(subscription), note)).toEqual({ outcome: 'gone', reason: 'endpoint is not a public address' })
    const named = { ...subscription, endpoint: subscription.endpoint.replace('127.0.0.1', 'localhost') }
    const policy: AddressPolicy = { allow: publicAddressesOnly.allow, resolve: async () => [{ address: '127.0.0.1', family: 4 }] }
    expect(await gateway(vapid, policy).send(device(named), note)).toEqual({ outcome: 'gone', reason: 'endpoint is not a public address' })
    expect(endpoint.received).toEqual([])
  })
})
