import { createECDH } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger, devicePushGateway, fcmPushGateway, loadServiceAccount, systemResolver, webPushGateway } from '@tutoring/adapters'
import { startFcmStandIn, startWebPushStandIn, testDatabaseKinds, type FcmStandIn, type WebPushStandIn } from '@tutoring/adapters/testing'
import { fakeClock } from '@tutoring/testkit'
import { createTestContext, type TestContext } from './support/harness'

type One<T> = { data: T }
type Session = { token: string; user: { id: number }; email: string }

const HOUR = 3_600_000

/** A VAPID key pair as `web-push` wants it: the P-256 public point and the 32-byte secret, base64url. */
function vapidKeys() {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: ecdh.getPrivateKey().subarray(-32).toString('base64url'), subject: 'mailto:push@tutoring.test' }
}

/**
 * SPEC "Events": a tutor's note sends the student a push. Through a listening server and the outbox to every device
 * of the student, FCM for phones and Web Push for browsers (local stand-ins of both), the
 * gone token deleted, and the provider's receipt recorded against the message.
 */
describe.each(testDatabaseKinds())('a note pushed to the student\'s devices on %s', (kind) => {
  let t: TestContext
  let fcm: FcmStandIn
  let browser: WebPushStandIn
  const vapid = vapidKeys()
  const clock = fakeClock(new Date(Math.ceil(Date.now() / HOUR) * HOUR))
  let origin = ''

  /** Through the listening server, as a client would call it. */
  const request = async <T = unknown>(method: string, path: string, options: { token?: string; body?: unknown } = {}) => {
    const headers: Record<string, string> = {}
    if (options.token) headers.authorization = `Bearer ${options.token}`
    if (options.body !== undefined) headers['content-type'] = 'application/json'
    const res = await fetch(`${origin}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) })
    const text = await res.text()
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T, text }
  }

  /** Delivers what is due; a push that failed shows its reason, not only an empty inbox. */
  const deliverAll = async () => {
    await t.infra.deliverOutbox()
    const failed = await t.db.selectFrom('outbox').select(['topic', 'attempts', 'last_error']).where('delivered_at', 'is', null).where('attempts', '>', 0).execute()
    expect(failed, 'outbox rows that failed to deliver').toEqual([])
  }

  beforeAll(async () => {
    ;[fcm, browser] = await Promise.all([startFcmStandIn(), startWebPushStandIn()])
    const logger = createLogger('silent')
    const account = await loadServiceAccount({ json: fcm.serviceAccountJson })
    const push = devicePushGateway({
      mobile: fcmPushGateway({ account, projectId: fcm.projectId, apiBase: fcm.url, timeoutMs: 5_000, logger }),
      web: webPushGateway({ vapid, timeoutMs: 5_000, logger, ca: browser.ca, policy: { allow: (a) => a === '127.0.0.1', resolve: systemResolver } }),
    })
    t = await createTestContext(kind, {}, { clock, push })
    origin = await t.listen()
  })
  afterAll(async () => {
    await t.close()
    await Promise.all([fcm.close(), browser.close()])
  })

  it('reaches the student\'s phone and browser, forgets the uninstalled app, and records the receipt', async () => {
    const tutor: Session = await t.bookableTutor()
    const student: Session = await t.register('student')
    const subject = await t.db.selectFrom('subjects').select('id').where('title', '=', 'Mathematics').executeTakeFirstOrThrow()
    const level = await t.db.selectFrom('subject_levels').select('id').where('title', '=', 'GCSE').executeTakeFirstOrThrow()
    const teach = await request<One<{ id: number }>>('POST', '/api/v1/teaches', { token: tutor.token, body: { subject_id: subject.id, subject_level_ids: [level.id], hourly_rate: '20.00' } })
    for (const day of ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY']) {
      await request('POST', '/api/v1/day-availabilities', { token: tutor.token, body: { day, slots: [{ from: '00:00', to: '24:00' }], lesson_types: ['online'], buffer_minutes: 0 } })
    }
    const start = new Date(clock.now().getTime() + 3 * 24 * HOUR)
    const booked = await request<One<{ id: number; lesson: { id: number } }>>('POST', '/api/bookings', {
      token: student.token,
      body: { teach_id: teach.body.data.id, subject_level_id: level.id, lesson_type: 3, start: start.toISOString(), finish: new Date(start.getTime() + HOUR).toISOString() },
    })
    expect(booked.status, booked.text).toBe(201)
    expect((await request('POST', '/api/payments/pay', { token: student.token, body: { booking_id: booked.body.data.id, payment_method: 'pm_card_visa' } })).status).toBe(200)

    // The student's phone and browser, an uninstalled app, and the tutor's own phone.
    const phone = `fcm-phone-${student.user.id}-${'p'.repeat(32)}`
    const uninstalled = `fcm-gone-${student.user.id}-${'g'.repeat(32)}`
    const tutorPhone = `fcm-tutor-${tutor.user.id}-${'t'.repeat(32)}`
    const web = browser.subscribe(vapid.publicKey)
    fcm.unregister(uninstalled)
    const register = async (s: Session, platform: string, token: string) =>
      expect((await request('POST', '/api/v1/user-devices', { token: s.token, body: { platform, push_token: token } })).status).toBe(201)
    await register(student, 'android', phone)
    await register(student, 'web', JSON.stringify(web.subscription))
    await register(student, 'ios', uninstalled)
    await register(tutor, 'ios', tutorPhone)
    await deliverAll()
    fcm.received.length = 0
    browser.received.length = 0

    const note = await request<One<{ id: number }>>('POST', '/api/v1/notes', { token: tutor.token, body: { lesson_id: booked.body.data.lesson.id, text: 'Fractions', summary: 'Solid work on fractions' } })
    expect(note.status, note.text).toBe(201)
    await deliverAll()

    expect(fcm.received.map((r) => r.message.token)).toEqual([phone])
    const data = { booking_id: String(booked.body.data.id), lesson_id: String(booked.body.data.lesson.id), note_id: String(note.body.data.id), start: start.toISOString() }
    expect(fcm.received[0]!.message).toMatchObject({ notification: { title: 'Notes on your Mathematics lesson', body: 'Solid work on fractions' }, data })
    expect(browser.received.map((r) => r.subscriptionId)).toEqual([web.id])
    expect(JSON.parse(browser.received[0]!.payload)).toEqual({ title: 'Notes on your Mathematics lesson', body: 'Solid work on fractions', data })

    const devices = await request<{ data: Array<{ platform: string }> }>('GET', '/api/v1/user-devices', { token: student.token })
    expect(devices.body.data.map((d) => d.platform).sort()).toEqual(['android', 'web'])
    const deliveries = await t.db.selectFrom('push_deliveries').select(['platform', 'outcome', 'provider_message_id']).where('user_id', '=', student.user.id).orderBy('device_id').execute()
    expect(deliveries.map((d) => [d.platform, d.outcome])).toEqual([['android', 'sent'], ['web', 'sent'], ['ios', 'gone']])

    // The provider's receipt for the phone's message, recorded against it once.
    const messageId = deliveries[0]!.provider_message_id!
    expect(messageId).toBe(fcm.received[0]!.name)
    const receipt = { id: `receipt-${note.body.data.id}`, message_id: messageId, type: 'delivered' }
    const first = await request<One<{ matched: number; duplicate: boolean }>>('POST', '/api/v1/remote-push-notification', { body: receipt })
    expect(first.body.data).toMatchObject({ matched: 1, duplicate: false })
    const again = await request<One<{ matched: number; duplicate: boolean }>>('POST', '/api/v1/remote-push-notification', { body: { ...receipt, type: 'failed' } })
    expect(again.body.data).toMatchObject({ matched: 0, duplicate: true })
    // Another callback can not overwrite the receipt: only a delivery still pending takes one (CONTRACT §15).
    const other = await request<One<{ matched: number; duplicate: boolean }>>('POST', '/api/v1/remote-push-notification', { body: { ...receipt, id: `other-${note.body.data.id}`, type: 'failed' } })
    expect(other.body.data).toMatchObject({ matched: 0, duplicate: false })
    const receipts = await t.db.selectFrom('push_deliveries').select(['platform', 'receipt_status']).where('user_id', '=', student.user.id).orderBy('device_id').execute()
    expect(receipts).toEqual([
      { platform: 'android', receipt_status: 'delivered' },
      { platform: 'web', receipt_status: null },
      { platform: 'ios', receipt_status: null },
    ])
  })
})
