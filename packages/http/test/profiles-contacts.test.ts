import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from './support/harness'

type Problem = { status: number; code: string; errors?: Record<string, string[]> }
type Caller = { token: string; user: { id: number } }
type Page<T> = { data: T[]; meta: { total: number } }
type One<T = Record<string, unknown>> = { data: T }

const address = { line1: '12 Analytical Street', city: 'London', postcode: 'sw1a  1aa' }

describe.each(testDatabaseKinds())('addresses, mobile numbers, devices and social links on %s', (kind) => {
  let t: TestContext
  let student: Caller
  let tutor: Caller

  beforeAll(async () => {
    t = await createTestContext(kind)
    student = await t.register('student')
    tutor = await t.register('tutor', { address: { line1: '1 Old Road', city: 'Leeds', postcode: 'LS1 1AA' }, mobile: '+447700900123' })
  })
  afterAll(() => t.close())

  const expectInvalid = async (method: string, url: string, token: string, body: unknown, fields: string[]) => {
    const res = await t.request<Problem>(method, url, { token, body })
    expect(res.status, res.text).toBe(422)
    expect(res.body.code).toBe('validation_failed')
    expect(Object.keys(res.body.errors ?? {}).sort()).toEqual([...fields].sort())
    return res.body.errors!
  }
  const addressRows = (userId: number) => t.db.selectFrom('addresses').selectAll().where('user_id', '=', userId).orderBy('id').execute()

  describe('addresses', () => {
    it("adds a student's addresses side by side, normalising the postcode and defaulting the country", async () => {
      const first = await t.request<One>('POST', '/api/v1/addresses', { token: student.token, body: address })
      expect(first.status).toBe(201)
      expect(first.body.data).toEqual({
        id: expect.any(Number),
        user_id: student.user.id,
        line1: '12 Analytical Street',
        line2: null,
        city: 'London',
        postcode: 'SW1A 1AA',
        country: 'GB',
      })
      const second = await t.request<One>('POST', '/api/v1/addresses', {
        token: student.token,
        body: { line1: '5 Rue X', line2: 'Flat 2', city: 'Paris', postcode: '75001', country: 'fr' },
      })
      expect(second.body.data).toMatchObject({ line2: 'Flat 2', country: 'FR' })
      expect((await addressRows(student.user.id)).map((a) => a.id)).toEqual([first.body.data.id, second.body.data.id])
      const list = await t.request<Page<unknown>>('GET', '/api/v1/addresses', { token: student.token })
      expect(list.body.meta.total).toBe(2)
    })

    it("replaces a tutor's one address with the new one", async () => {
      const before = await addressRows(tutor.user.id)
      expect(before).toHaveLength(1)
      const res = await t.request<One<{ id: number }>>('POST', '/api/v1/addresses', { token: tutor.token, body: address })
      expect(res.status).toBe(201)
      const after = await addressRows(tutor.user.id)
      expect(after.map((a) => a.id)).toEqual([res.body.data.id])
      expect(after[0]).toMatchObject({ line1: '12 Analytical Street', postcode: 'SW1A 1AA' })
      const list = await t.request<Page<{ id: number }>>('GET', '/api/v1/addresses', { token: tutor.token })
      expect(list.body.data.map((a) => a.id)).toEqual([res.body.data.id])
    })

    it('keeps a tutor at one address when two additions race', async () => {
      const results = await Promise.all(
        ['1 Race Lane', '2 Race Lane', '3 Race Lane'].map((line1) =>
          t.request('POST', '/api/v1/addresses', { token: tutor.token, body: { ...address, line1 } }),
        ),
      )
      expect(results.map((r) => r.status)).toEqual([201, 201, 201])
      expect(await addressRows(tutor.user.id)).toHaveLength(1)
    })

    it("keeps the tutor's old address when the new one is refused", async () => {
      const before = await addressRows(tutor.user.id)
      await expectInvalid('POST', '/api/v1/addresses', tutor.token, { ...address, country: 'ZZ' }, ['country'])
      expect(await addressRows(tutor.user.id)).toEqual(before)
    })

    it('changes only the fields sent and clears line2 with null', async () => {
      const created = await t.request<One<{ id: number }>>('POST', '/api/v1/addresses', {
        token: student.token,
        body: { ...address, line2: 'Flat 1' },
      })
      const res = await t.request<One>('PUT', `/api/v1/addresses/${created.body.data.id}`, {
        token: student.token,
        body: { city: 'Bath', line2: null },
      })
      expect(res.status).toBe(200)
      expect(res.body.data).toMatchObject({ line1: '12 Analytical Street', line2: null, city: 'Bath', postcode: 'SW1A 1AA' })
      await expectInvalid('PUT', `/api/v1/addresses/${created.body.data.id}`, student.token, { country: 'XX' }, ['country'])
    })

    it('refuses missing, malformed and unknown fields', async () => {
      await expectInvalid('POST', '/api/v1/addresses', student.token, { line1: '', postcode: '!!', user_id: 3 }, ['line1', 'city', 'postcode', 'user_id'])
      await expectInvalid('POST', '/api/v1/addresses', student.token, { ...address, country: 'GBR' }, ['country'])
      await expectInvalid('PUT', `/api/v1/addresses/1`, student.token, { line1: 7 }, ['line1'])
    })

    it('removes an address for good', async () => {
      const created = await t.request<One<{ id: number }>>('POST', '/api/v1/addresses', { token: student.token, body: address })
      expect((await t.request('DELETE', `/api/v1/addresses/${created.body.data.id}`, { token: student.token })).status).toBe(204)
      expect(await t.db.selectFrom('addresses').select('id').where('id', '=', created.body.data.id).execute()).toEqual([])
    })
  })

  describe('mobile numbers', () => {
    it('adds, lists, changes and removes E.164 numbers', async () => {
      const created = await t.request<One>('POST', '/api/v1/mobile-numbers', { token: student.token, body: { number: ' +447700900555 ' } })
      expect(created.status).toBe(201)
      expect(created.body.data).toEqual({ id: expect.any(Number), user_id: student.user.id, number: '+447700900555' })
      const id = created.body.data.id as number
      const changed = await t.request<One>('PUT', `/api/v1/mobile-numbers/${id}`, { token: student.token, body: { number: '+33612345678' } })
      expect(changed.body.data).toMatchObject({ id, number: '+33612345678' })
      const list = await t.request<Page<{ number: string }>>('GET', '/api/v1/mobile-numbers', { token: student.token })
      expect(list.body.data.map((m) => m.number)).toContain('+33612345678')
      expect((await t.request('DELETE', `/api/v1/mobile-numbers/${id}`, { token: student.token })).status).toBe(204)
      expect(await t.db.selectFrom('mobile_numbers').select('id').where('id', '=', id).execute()).toEqual([])
    })

    it('refuses numbers that are not E.164, an empty change and unknown fields', async () => {
      for (const number of ['07700900123', '+0447700900', '+44 7700 900123', '+4412', 447700900123]) {
        const errors = await expectInvalid('POST', '/api/v1/mobile-numbers', student.token, { number }, ['number'])
        if (typeof number === 'string') expect(errors.number![0]).toMatch(/E\.164/)
      }
      const created = await t.request<One<{ id: number }>>('POST', '/api/v1/mobile-numbers', { token: student.token, body: { number: '+447700900556' } })
      await expectInvalid('PUT', `/api/v1/mobile-numbers/${created.body.data.id}`, student.token, {}, ['number'])
      await expectInvalid('POST', '/api/v1/mobile-numbers', student.token, { number: '+447700900557', primary: true }, ['primary'])
    })
  })

  describe('user devices', () => {
    it('registers a device, and registering its token again answers the same device', async () => {
      const body = { platform: 'ios', push_token: 'apns-token-one' }
      const first = await t.request<One>('POST', '/api/v1/user-devices', { token: student.token, body })
      expect(first.status).toBe(201)
      expect(first.body.data).toEqual({
        id: expect.any(Number),
        user_id: student.user.id,
        platform: 'ios',
        push_token: 'apns-token-one',
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
        updated_at: expect.any(String),
      })
      const again = await t.request<One>('POST', '/api/v1/user-devices', { token: student.token, body })
      expect(again.body.data.id).toBe(first.body.data.id)
      expect(await t.db.selectFrom('user_devices').select('id').where('push_token', '=', 'apns-token-one').execute()).toHaveLength(1)
    })

    it('moves a token to whoever registers it last, so a shared phone stops getting the last user\'s pushes', async () => {
      const body = { platform: 'android', push_token: 'fcm-shared-phone' }
      const mine = await t.request<One<{ id: number }>>('POST', '/api/v1/user-devices', { token: student.token, body })
      const theirs = await t.request<One<{ user_id: number }>>('POST', '/api/v1/user-devices', { token: tutor.token, body })
      expect(theirs.status).toBe(201)
      expect(theirs.body.data.user_id).toBe(tutor.user.id)
      const studentDevices = await t.request<Page<{ push_token: string }>>('GET', '/api/v1/user-devices', { token: student.token })
      expect(studentDevices.body.data.map((d) => d.push_token)).not.toContain('fcm-shared-phone')
      expect((await t.request('PUT', `/api/v1/user-devices/${mine.body.data.id}`, { token: student.token, body: { platform: 'ios' } })).status).toBe(404)
    })

    it("updates a device's rotated token under the same id, taking it from any other row", async () => {
      const device = await t.request<One<{ id: number }>>('POST', '/api/v1/user-devices', {
        token: student.token,
        body: { platform: 'android', push_token: 'fcm-old' },
      })
      await t.request('POST', '/api/v1/user-devices', { token: tutor.token, body: { platform: 'android', push_token: 'fcm-new' } })
      const res = await t.request<One>('PUT', `/api/v1/user-devices/${device.body.data.id}`, {
        token: student.token,
        body: { push_token: 'fcm-new' },
      })
      expect(res.status).toBe(200)
      expect(res.body.data).toMatchObject({ id: device.body.data.id, user_id: student.user.id, platform: 'android', push_token: 'fcm-new' })
      const holders = await t.db.selectFrom('user_devices').select(['id', 'user_id']).where('push_token', '=', 'fcm-new').execute()
      expect(holders).toEqual([{ id: device.body.data.id, user_id: student.user.id }])
    })

    it('refuses an unknown platform, an empty token and unknown fields', async () => {
      await expectInvalid('POST', '/api/v1/user-devices', student.token, { platform: 'symbian', push_token: '' }, ['platform', 'push_token'])
      await expectInvalid('POST', '/api/v1/user-devices', student.token, { platform: 'ios', push_token: 'x', user_id: 1 }, ['user_id'])
      const device = await t.request<One<{ id: number }>>('POST', '/api/v1/user-devices', { token: student.token, body: { platform: 'android', push_token: 'fcm-1' } })
      await expectInvalid('PUT', `/api/v1/user-devices/${device.body.data.id}`, student.token, { platform: 'blackberry' }, ['platform'])
    })

    it('stores a token of the longest length taken, past what a plain index entry holds, still one row per token', async () => {
      // Random, so compression cannot shrink it under the index entry limit.
      const long = randomBytes(3072).toString('base64url')
      const first = await t.request<One<{ id: number }>>('POST', '/api/v1/user-devices', { token: student.token, body: { platform: 'android', push_token: long } })
      expect(first.status, first.text).toBe(201)
      const moved = await t.request<One<{ id: number; user_id: number }>>('POST', '/api/v1/user-devices', { token: tutor.token, body: { platform: 'android', push_token: long } })
      expect(moved.body.data).toMatchObject({ id: first.body.data.id, user_id: tutor.user.id })
      expect(await t.db.selectFrom('user_devices').select('id').where('push_token', '=', long).execute()).toHaveLength(1)
    })

    it("takes a web device's PushSubscription JSON as its token, and refuses a web token that is not one", async () => {
      const subscription = {
        endpoint: 'https://push.example.com/send/abc123',
        expirationTime: null,
        keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'AAAAAAAAAAAAAAAAAAAAAA' },
      }
      const created = await t.request<One>('POST', '/api/v1/user-devices', { token: student.token, body: { platform: 'web', push_token: JSON.stringify(subscription) } })
      expect(created.status).toBe(201)
      expect(JSON.parse(String(created.body.data.push_token))).toEqual(subscription)
      await expectInvalid('POST', '/api/v1/user-devices', student.token, { platform: 'web', push_token: 'web-1' }, ['push_token'])
      const plainHttp = { ...subscription, endpoint: 'http://push.example.com/send/abc123' }
      await expectInvalid('POST', '/api/v1/user-devices', student.token, { platform: 'web', push_token: JSON.stringify(plainHttp) }, ['push_token'])
      const phone = await t.request<One<{ id: number }>>('POST', '/api/v1/user-devices', { token: student.token, body: { platform: 'android', push_token: 'fcm-2' } })
      await expectInvalid('PUT', `/api/v1/user-devices/${phone.body.data.id}`, student.token, { platform: 'web', push_token: 'fcm-2' }, ['push_token'])
    })
  })

  describe('social links', () => {
    it("lets anyone read a user's links, and a signed-in caller their own without user_id", async () => {
      const created = await t.request<One>('POST', '/api/social-links', {
        token: tutor.token,
        body: { platform: 'linkedin', url: 'HTTPS://WWW.LinkedIn.com/in/ada' },
      })
      expect(created.status).toBe(201)
      expect(created.body.data).toEqual({ id: expect.any(Number), user_id: tutor.user.id, platform: 'linkedin', url: 'https://www.linkedin.com/in/ada' })
      const anonymous = await t.request<Page<{ id: number }>>('GET', `/api/social-links?user_id=${tutor.user.id}`)
      expect(anonymous.status).toBe(200)
      expect(anonymous.body.data).toEqual([created.body.data])
      const own = await t.request<Page<{ id: number }>>('GET', '/api/social-links', { token: tutor.token })
      expect(own.body.data.map((l) => l.id)).toEqual([created.body.data.id])
    })

    it('needs user_id from an anonymous reader, and answers 404 for an unknown user', async () => {
      const missing = await t.request<Problem>('GET', '/api/social-links')
      expect(missing.status).toBe(422)
      expect(missing.body.errors).toEqual({ user_id: ['is required'] })
      expect((await t.request('GET', '/api/social-links?user_id=987654')).status).toBe(404)
    })

    it('changes and removes a link', async () => {
      const created = await t.request<One<{ id: number }>>('POST', '/api/social-links', {
        token: tutor.token,
        body: { platform: 'youtube', url: 'https://youtube.com/@ada' },
      })
      const changed = await t.request<One>('PUT', `/api/social-links/${created.body.data.id}`, { token: tutor.token, body: { platform: 'other' } })
      expect(changed.body.data).toMatchObject({ platform: 'other', url: 'https://youtube.com/@ada' })
      expect((await t.request('DELETE', `/api/social-links/${created.body.data.id}`, { token: tutor.token })).status).toBe(204)
      expect(await t.db.selectFrom('social_links').select('id').where('id', '=', created.body.data.id).execute()).toEqual([])
    })

    it('refuses links that are not https, unknown platforms and unknown fields', async () => {
      for (const url of ['http://ada.example.com', 'javascript:alert(1)', 'ftp://x.example.com', 'https://', 'not a url', `https://x.com/${'a'.repeat(2048)}`]) {
        const errors = await expectInvalid('POST', '/api/social-links', tutor.token, { platform: 'website', url }, ['url'])
        expect(errors.url!.length).toBeGreaterThan(0)
      }
      await expectInvalid('POST', '/api/social-links', tutor.token, { platform: 'myspace', url: 'https://x.example.com', user_id: 2 }, ['platform', 'user_id'])
    })
  })
})
