import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import webpush from 'web-push'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { systemResolver } from '../net'
import { loadConfig } from '../config'
import type { DatabaseHandle } from '../db/connect'
import { createLogger } from '../logger'
import type { Mailer } from '../mail'
import { devicePushGateway, fcmPushGateway, loadServiceAccount, pushGatewayFromConfig, webPushGateway } from './push'
import { createTestDatabase, startFcmStandIn, startWebPushStandIn, testDatabaseKinds, type FcmStandIn, type WebPushStandIn } from '../testing'
import { deliverDueOutbox, outboxQueue, outboxWriter, type PushSender } from '../outbox'
import { devicePushSender } from './push-delivery'

const logger = createLogger('silent')
const noMail: Mailer = { kind: 'folder', send: async () => undefined, close: () => undefined }

let fcm: FcmStandIn
let browser: WebPushStandIn
const vapid = { ...webpush.generateVAPIDKeys(), subject: 'mailto:push@tutoring.test' }
beforeAll(async () => {
  fcm = await startFcmStandIn()
  browser = await startWebPushStandIn()
})
afterAll(async () => {
  await fcm.close()
  await browser.close()
})

describe.each(testDatabaseKinds())('outbox pushes on %s', (kind) => {
  let handle: DatabaseHandle
  let sender: PushSender
  beforeAll(async () => {
    handle = await createTestDatabase(kind)
    const account = await loadServiceAccount({ json: fcm.serviceAccountJson })
    const gateway = devicePushGateway({
      mobile: fcmPushGateway({ account, projectId: fcm.projectId, apiBase: fcm.url, timeoutMs: 2_000, logger }),
      web: webPushGateway({ vapid, timeoutMs: 2_000, logger, ca: browser.ca, policy: { allow: (a) => a === '127.0.0.1', resolve: systemResolver } }),
    })
    sender = devicePushSender(handle.db, gateway, { ttlSeconds: 600, logger })
  })
  afterAll(() => handle.close())
  beforeEach(async () => {
    fcm.received.length = 0
    browser.received.length = 0
    await handle.db.deleteFrom('outbox').execute()
  })

  let seq = 0
  const user = async () => {
    const n = `${Date.now()}-${++seq}`
    const row = await handle.db
      .insertInto('users')
      .values({ email: `u${n}@example.com`, password_hash: 'x', username: `u${n}`, firstname: 'Ada', lastname: 'L', role_id: 1, country: 'GB', email_verified_at: null, processor_customer_id: null, processor_account_id: null, deleted_at: null })
      .returning('id')
      .executeTakeFirstOrThrow()
    return row.id
  }
  const device = (userId: number, platform: 'ios' | 'android' | 'web', token: string) =>
    handle.db.insertInto('user_devices').values({ user_id: userId, platform, push_token: token }).returning('id').executeTakeFirstOrThrow()
  const fcmToken = (name: string) => `fcm-${name}-${seq}-${'x'.repeat(24)}`
  const deliver = (at: Date = new Date(Date.now() + 1000)) =>
    deliverDueOutbox({ queue: outboxQueue(handle.db, () => at), mailer: noMail, push: sender, processorSync: {}, logger, internalMailbox: 'staff@tutoring.test', now: () => at })
  const enqueue = (userId: number) =>
    outboxWriter(handle.db, () => new Date()).enqueue({ kind: 'push', userId, title: 'New note', body: 'Your tutor wrote a summary', data: { bookingId: 7, kind: 'note' } })
  const devicesOf = async (userId: number) =>
    (await handle.db.selectFrom('user_devices').select('push_token').where('user_id', '=', userId).orderBy('id').execute()).map((d) => d.push_token)

  it('reaches every device of the recipient, FCM for phones and Web Push for browsers, and records each', async () => {
    const ada = await user()
    const other = await user()
    const web = browser.subscribe(vapid.publicKey)
    await device(ada, 'android', fcmToken('android'))
    await device(ada, 'ios', fcmToken('ios'))
    await device(ada, 'web', JSON.stringify(web.subscription))
    await device(other, 'android', fcmToken('other'))
    await enqueue(ada)

    expect(await deliver()).toEqual({ delivered: 1, failed: 0 })
    expect(fcm.received.map((r) => r.message.token).sort()).toEqual([fcmToken('android'), fcmToken('ios')].sort())
    expect(fcm.received[0]!.message).toMatchObject({ notification: { title: 'New note' }, data: { bookingId: '7', kind: 'note' }, android: { ttl: '600s' } })
    expect(browser.received).toHaveLength(1)
    expect(browser.received[0]).toMatchObject({ subscriptionId: web.id, ttl: 600 })
    expect(JSON.parse(browser.received[0]!.payload)).toEqual({ title: 'New note', body: 'Your tutor wrote a summary', data: { bookingId: '7', kind: 'note' } })
    const rows = await handle.db.selectFrom('push_deliveries').selectAll().where('user_id', '=', ada).execute()
    expect(rows.map((r) => [r.platform, r.outcome]).sort()).toEqual([['android', 'sent'], ['ios', 'sent'], ['web', 'sent']])
    expect(rows.every((r) => r.provider_message_id)).toBe(true)
  })

  it('deletes the devices whose tokens the providers report gone, and keeps the rest', async () => {
    const ada = await user()
    const gone = browser.subscribe(vapid.publicKey)
    browser.unsubscribe(gone.id)
    fcm.unregister(fcmToken('uninstalled'))
    await device(ada, 'android', fcmToken('uninstalled'))
    await device(ada, 'web', JSON.stringify(gone.subscription))
    await device(ada, 'ios', fcmToken('kept'))
    await enqueue(ada)

    expect(await deliver()).toEqual({ delivered: 1, failed: 0 })
    expect(await devicesOf(ada)).toEqual([fcmToken('kept')])
    expect(fcm.received.map((r) => r.message.token)).toEqual([fcmToken('kept')])
    const outcomes = await handle.db.selectFrom('push_deliveries').select(['platform', 'outcome']).where('user_id', '=', ada).orderBy('device_id').execute()
    expect(outcomes).toEqual([
      { platform: 'android', outcome: 'gone' },
      { platform: 'web', outcome: 'gone' },
      { platform: 'ios', outcome: 'sent' },
    ])
  })

  it('retries a failed provider later without pushing twice to the devices already served', async () => {
    const ada = await user()
    const web = browser.subscribe(vapid.publicKey)
    await device(ada, 'web', JSON.stringify(web.subscription))
    await device(ada, 'android', fcmToken('flaky'))
    await enqueue(ada)
    fcm.failNext(1)

    const first = new Date(Date.now() + 1000)
    expect(await deliver(first)).toEqual({ delivered: 0, failed: 1 })
    expect(browser.received).toHaveLength(1)
    expect(fcm.received).toHaveLength(0)
    const [row] = await outboxQueue(handle.db, () => first).list()
    expect(row!.last_error).toMatch(/push failed for 1 of 2 devices: FCM refused the message \(503 UNAVAILABLE\)/)

    expect(await deliver(new Date(first.getTime() + 31_000))).toEqual({ delivered: 1, failed: 0 })
    expect(browser.received).toHaveLength(1)
    expect(fcm.received.map((r) => r.message.token)).toEqual([fcmToken('flaky')])
  })

  it('leaves a device that took a new token meanwhile', async () => {
    const ada = await user()
    const old = fcmToken('rotated-old')
    fcm.unregister(old)
    const { id } = await device(ada, 'android', old)
    const rotating: PushSender = {
      async send(message) {
        // The app registers its new token while the old one's push is in flight.
        await handle.db.updateTable('user_devices').set({ push_token: fcmToken('rotated-new') }).where('id', '=', id).execute()
        await sender.send(message)
      },
    }
    await enqueue(ada)
    const at = new Date(Date.now() + 1000)
    await deliverDueOutbox({ queue: outboxQueue(handle.db, () => at), mailer: noMail, push: rotating, processorSync: {}, logger, internalMailbox: 'staff@tutoring.test', now: () => at })
    expect(await devicesOf(ada)).toEqual([fcmToken('rotated-new')])
  })
})

describe('without provider credentials', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tutoring-push-'))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('writes each push as one JSON file under DATA_DIR/push', async () => {
    const gateway = await pushGatewayFromConfig(loadConfig({ DATA_DIR: dir }), logger)
    const web = JSON.stringify(browser.subscribe(vapid.publicKey).subscription)
    const notification = { title: 'New note', body: 'Summary', data: { bookingId: '7' }, ttlSeconds: 60 }
    expect((await gateway.send({ platform: 'android', token: 'fcm-token' }, notification)).outcome).toBe('sent')
    expect((await gateway.send({ platform: 'web', token: web }, notification)).outcome).toBe('sent')
    const files = (await readdir(path.join(dir, 'push'))).sort()
    expect(files).toHaveLength(2)
    const written = await Promise.all(files.map(async (f) => JSON.parse(await readFile(path.join(dir, 'push', f), 'utf8')) as Record<string, unknown>))
    expect(written.map((w) => w.platform).sort()).toEqual(['android', 'web'])
    expect(written[0]).toMatchObject({ title: 'New note', body: 'Summary', data: { bookingId: '7' }, ttlSeconds: 60, created_at: expect.any(String) })
    expect(browser.received).toHaveLength(0)
  })

  it('refuses half a VAPID configuration and an unreadable service account at start', async () => {
    await expect(pushGatewayFromConfig(loadConfig({ DATA_DIR: dir, VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey }), logger)).rejects.toThrow(/go together/)
    await expect(pushGatewayFromConfig(loadConfig({ DATA_DIR: dir, FCM_SERVICE_ACCOUNT_FILE: path.join(dir, 'missing.json') }), logger)).rejects.toThrow(/FCM_SERVICE_ACCOUNT_FILE: no such file/)
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: 'short' })).toThrow(/VAPID_PUBLIC_KEY/)
  })
})
