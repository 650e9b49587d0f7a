import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from './support/harness'
import { fakeClock } from '@tutoring/testkit'

type Session = { data: { token: string; token_type: string; expires_in: number; user: Record<string, unknown> } }
type Problem = { type: string; title: string; status: number; code: string; detail?: string; errors?: Record<string, string[]> }

const tutorBody = (email: string) => ({
  email,
  password: 'a long enough password',
  firstname: 'Ada',
  lastname: 'Lovelace',
  role: 'tutor',
  country: 'GB',
  date_of_birth: '1990-12-10',
  address: { line1: '12 Analytical Street', city: 'London', postcode: 'sw1a 1aa' },
  mobile: '+447700900123',
  dbs: { certificate_number: '001234567890', issue_date: '2025-01-15' },
  card: { payment_method: 'pm_card_visa' },
})

describe.each(testDatabaseKinds())('accounts on %s', (kind) => {
  let t: TestContext
  const clock = fakeClock(new Date('2026-11-22T10:00:00Z'))
  beforeAll(async () => {
    t = await createTestContext(kind, {}, { clock })
  })
  afterAll(() => t.close())

  describe('registration', () => {
    it('registers a tutor with everything and answers a session of one year', async () => {
      const res = await t.request<Session>('POST', '/api/auth/register', { body: tutorBody('Ada@Example.com ') })
      expect(res.status).toBe(201)
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
      expect(res.body.data).toMatchObject({ token_type: 'Bearer', expires_in: 31_557_600 })
      expect(res.body.data.token).toMatch(/^[A-Za-z0-9_-]{43,}$/)
      expect(res.body.data.user).toEqual({
        id: expect.any(Number),
        email: 'ada@example.com',
        username: 'ada.lovelace',
        firstname: 'Ada',
        lastname: 'Lovelace',
        role_id: 3,
        role: 'tutor',
        country: 'GB',
        email_verified_at: null,
        created_at: expect.any(String),
      })
      const id = res.body.data.user.id as number
      const address = await t.db.selectFrom('addresses').selectAll().where('user_id', '=', id).executeTakeFirstOrThrow()
      expect(address).toMatchObject({ postcode: 'SW1A 1AA', country: 'GB' })
      const dbs = await t.db.selectFrom('verifications').selectAll().where('user_id', '=', id).executeTakeFirstOrThrow()
      expect(dbs).toMatchObject({ kind: 'dbs', status: 'PENDING', certificate_number: '001234567890', issue_date: '2025-01-15' })
      const card = await t.db.selectFrom('cards').selectAll().where('user_id', '=', id).executeTakeFirstOrThrow()
      expect(card).toMatchObject({ brand: 'visa', last4: '4242', is_default: true })
      const sub = await t.db.selectFrom('subscriptions').selectAll().where('user_id', '=', id).executeTakeFirstOrThrow()
      expect(sub.status).toBe('trialing')
      expect(sub.trial_ends_at!.getTime()).toBe(clock.now().getTime() + 30 * 86_400_000)
      const details = await t.db.selectFrom('personal_details').selectAll().where('user_id', '=', id).executeTakeFirstOrThrow()
      expect(details.date_of_birth).toBe('1990-12-10')
      expect(await t.db.selectFrom('mobile_numbers').select('number').where('user_id', '=', id).executeTakeFirst()).toEqual({ number: '+447700900123' })
      expect(await t.db.selectFrom('profiles').select('is_visible').where('user_id', '=', id).executeTakeFirst()).toEqual({ is_visible: false })
    })

    it('queues the verification email, the internal notice and the processor subscription with the registration', async () => {
      const { user } = await t.register('tutor')
      const emails = await t.outbox({ kind: 'email' })
      const mine = emails.filter((e) => JSON.stringify(e.payload).includes(user.email) || JSON.stringify(e.payload).includes(`"userId":${user.id}`))
      expect(mine.map((e) => e.topic).sort()).toEqual(['registered_internal', 'verify_email'])
      const sync = await t.outbox({ kind: 'processor_sync', topic: 'subscription.create' })
      expect(sync.some((s) => (s.payload as { data: { userId: number } }).data.userId === user.id)).toBe(true)
    })

    it('registers a student without a subscription, and the legacy route does the same', async () => {
      const res = await t.request<Session>('POST', '/api/v1/auth/register', {
        body: { email: 'student.legacy@example.com', password: 'password123', firstname: 'Sam', lastname: 'Pupil', role: 'student', country: 'gb' },
      })
      expect(res.status).toBe(201)
      expect(res.body.data.user).toMatchObject({ role: 'student', role_id: 1, country: 'GB' })
      const subs = await t.db.selectFrom('subscriptions').select('id').where('user_id', '=', res.body.data.user.id as number).execute()
      expect(subs).toEqual([])
    })

    it('refuses a declined card and leaves no user behind', async () => {
      const res = await t.request<Problem>('POST', '/api/auth/register', {
        body: { ...tutorBody('declined@example.com'), card: { payment_method: 'pm_card_chargeDeclined' } },
      })
      expect(res.status).toBe(422)
      expect(res.body.code).toBe('validation_failed')
      expect(res.body.errors).toEqual({ 'card.payment_method': ['Your card was declined.'] })
      expect(await t.db.selectFrom('users').select('id').where('email', '=', 'declined@example.com').execute()).toEqual([])
    })

    it('refuses a taken email, case and blanks aside', async () => {
      await t.register('student', { email: 'taken@example.com' })
      const res = await t.request<Problem>('POST', '/api/auth/register', {
        body: { email: ' TAKEN@example.com', password: 'password123', firstname: 'A', lastname: 'B', role: 'parent', country: 'GB' },
      })
      expect(res.status).toBe(422)
      expect(res.body.errors?.email).toEqual(['has already been taken'])
    })

    it('answers every invalid field at once, and unknown fields too', async () => {
      const res = await t.request<Problem>('POST', '/api/auth/register', {
        body: { email: 'nope', password: 'short', role: 'admin', country: 'GBR', mobile: '0770', is_admin: true, address: { line1: 'x', city: 'y', postcode: 'SW1A 1AA', id: 4 } },
      })
      expect(res.status).toBe(422)
      expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8')
      expect(res.body).toMatchObject({ status: 422, code: 'validation_failed', title: 'Validation failed' })
      expect(Object.keys(res.body.errors!).sort()).toEqual(
        ['address.id', 'country', 'email', 'firstname', 'is_admin', 'lastname', 'mobile', 'password', 'role'].sort(),
      )
      expect(res.body.errors!.firstname).toEqual(['is required'])
    })

    it('refuses an unknown country code and a DBS for a non-tutor', async () => {
      const res = await t.request<Problem>('POST', '/api/auth/register', {
        body: { email: 'zz@example.com', password: 'password123', firstname: 'A', lastname: 'B', role: 'student', country: 'ZZ', dbs: { certificate_number: '001234567890', issue_date: '2025-01-01' } },
      })
      expect(res.status).toBe(422)
      expect(res.body.errors).toEqual({ country: ['is not a known country code'], dbs: ['is only for tutors'] })
    })

    it('answers 400 for a body that is not JSON or not sent as JSON', async () => {
      const broken = await t.request<Problem>('POST', '/api/auth/register', { raw: '{"email":', headers: { 'content-type': 'application/json' } })
      expect(broken.status).toBe(400)
      expect(broken.body.code).toBe('malformed_request')
      const form = await t.request<Problem>('POST', '/api/auth/register', { raw: 'email=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
      expect(form.status).toBe(400)
      expect(form.body.code).toBe('malformed_request')
    })
  })

  describe('login and sessions', () => {
    it('logs in, reaches an auth:api route, logs out, and the token is dead at once', async () => {
      const { email, password } = await t.register('parent')
      const login = await t.request<Session>('POST', '/api/auth/login', { body: { email: email.toUpperCase(), password } })
      expect(login.status).toBe(200)
      const token = login.body.data.token
      const me = await t.request('GET', `/api/v1/users/${login.body.data.user.id}`, { token })
      expect(me.status).toBe(200)
      const out = await t.request('POST', '/api/auth/logout', { token })
      expect(out.status).toBe(204)
      const after = await t.request<Problem>('GET', `/api/v1/users/${login.body.data.user.id}`, { token })
      expect(after.status).toBe(401)
      expect(after.body.code).toBe('unauthenticated')
    })

    it('answers the same 401 for an unknown email and for a wrong password', async () => {
      const { email } = await t.register('student')
      const wrong = await t.request<Problem>('POST', '/api/v1/auth/login', { body: { email, password: 'not the password' } })
      const unknown = await t.request<Problem>('POST', '/api/auth/login', { body: { email: 'ghost@example.com', password: 'whatever1' } })
      expect(wrong.status).toBe(401)
      expect(unknown.status).toBe(401)
      expect(wrong.body).toEqual(unknown.body)
      expect(wrong.body.code).toBe('invalid_credentials')
    })

    it('refuses a missing, malformed or tampered token with 401', async () => {
      const { token, user } = await t.register('student')
      const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A')
      for (const authorization of ['', 'Bearer', `Basic ${token}`, `Bearer ${flipped}`, `Bearer ${token}x`]) {
        const res = await t.request<Problem>('GET', `/api/v1/users/${user.id}`, { headers: authorization ? { authorization } : {} })
        expect(res.status, authorization).toBe(401)
      }
    })

    it('serves the legacy HTML login form', async () => {
      const res = await t.request('GET', '/api/v1/auth/login')
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/^text\/html/)
      expect(res.text).toContain('<form')
    })
  })

  describe('password reset', () => {
    const resetTokenFor = async (email: string) => {
      const mails = await t.outbox({ kind: 'email', topic: 'reset_password' })
      const mine = mails.filter((m) => (m.payload as { to: string }).to === email).at(-1)
      const url = new URL((mine!.payload as { data: { resetUrl: string } }).data.resetUrl)
      return url.searchParams.get('token')!
    }

    it('answers 202 whether or not the email exists, and mails only a real one', async () => {
      const { email } = await t.register('student')
      const before = (await t.outbox({ topic: 'reset_password' })).length
      const real = await t.request('POST', '/api/auth/forgot', { body: { email } })
      const ghost = await t.request('POST', '/api/v1/auth/forgot', { body: { email: 'ghost@example.com' } })
      expect(real.status).toBe(202)
      expect(ghost.status).toBe(202)
      expect(real.body).toEqual(ghost.body)
      expect((await t.outbox({ topic: 'reset_password' })).length).toBe(before + 1)
    })

    it('resets with the emailed token, ends every session, and the token works once', async () => {
      const { email, token: session } = await t.register('student')
      await t.request('POST', '/api/auth/forgot', { body: { email } })
      const token = await resetTokenFor(email)
      const reset = await t.request('POST', '/api/auth/reset', { body: { email, token, password: 'brand new password' } })
      expect(reset.status).toBe(200)
      expect((await t.request('POST', '/api/auth/logout', { token: session })).status).toBe(401)
      expect((await t.request('POST', '/api/auth/login', { body: { email, password: 'brand new password' } })).status).toBe(200)
      const again = await t.request<Problem>('POST', '/api/auth/reset', { body: { email, token, password: 'another password' } })
      expect(again.status).toBe(422)
      expect(again.body.errors).toEqual({ token: ['is invalid or has expired'] })
    })

    it('refuses a token older than 6 minutes', async () => {
      const { email } = await t.register('student')
      await t.request('POST', '/api/auth/forgot', { body: { email } })
      const token = await resetTokenFor(email)
      clock.advance(6 * 60_000 + 1000)
      const res = await t.request<Problem>('POST', '/api/auth/reset', { body: { email, token, password: 'brand new password' } })
      expect(res.status).toBe(422)
      expect(res.body.code).toBe('validation_failed')
    })

    it("refuses another user's token", async () => {
      const a = await t.register('student')
      const b = await t.register('student')
      await t.request('POST', '/api/auth/forgot', { body: { email: a.email } })
      const token = await resetTokenFor(a.email)
      const res = await t.request('POST', '/api/auth/reset', { body: { email: b.email, token, password: 'brand new password' } })
      expect(res.status).toBe(422)
    })
  })

  describe('account deletion', () => {
    it('soft-deletes, kills every token, tells the internal mailbox, and the email cannot log in', async () => {
      const { token, email, password, user } = await t.register('parent')
      const second = await t.request<Session>('POST', '/api/auth/login', { body: { email, password } })
      const res = await t.request('DELETE', '/api/auth', { token })
      expect(res.status).toBe(204)
      expect(res.text).toBe('')
      for (const tok of [token, second.body.data.token]) {
        expect((await t.request('GET', `/api/v1/users/${user.id}`, { token: tok })).status).toBe(401)
      }
      expect((await t.request('POST', '/api/auth/login', { body: { email, password } })).status).toBe(401)
      const row = await t.db.selectFrom('users').select('deleted_at').where('id', '=', user.id).executeTakeFirstOrThrow()
      expect(row.deleted_at).toBeInstanceOf(Date)
      const mails = await t.outbox({ topic: 'user_deleted' })
      expect(mails.some((m) => (m.payload as { to: string }).to === 'internal@tutoring.local')).toBe(true)
    })

    it('needs a token', async () => {
      expect((await t.request('DELETE', '/api/auth')).status).toBe(401)
    })
  })

  describe('email verification', () => {
    const verifyUrlOf = async (email: string) => {
      const mails = await t.outbox({ topic: 'verify_email' })
      const mine = mails.filter((m) => (m.payload as { to: string }).to === email).at(-1)!
      return new URL((mine.payload as { data: { verifyUrl: string } }).data.verifyUrl)
    }

    it('verifies through the signed link and refuses a tampered one', async () => {
      const { email, user, token } = await t.register('student')
      const url = await verifyUrlOf(email)
      const tampered = url.pathname.replace(/\/(\d+)$/, (_, id) => `/${Number(id) + 1}`) + url.search
      expect((await t.request<Problem>('GET', tampered)).body.code).toBe('invalid_signature')
      expect((await t.request('GET', tampered)).status).toBe(403)
      const res = await t.request<{ data: { email_verified_at: string } }>('GET', url.pathname + url.search)
      expect(res.status).toBe(200)
      expect(res.body.data.email_verified_at).not.toBeNull()
      const me = await t.request<{ data: { email_verified_at: string } }>('GET', `/api/v1/users/${user.id}`, { token })
      expect(me.body.data.email_verified_at).toBe(res.body.data.email_verified_at)
    })

    it('resends the link to an unverified user, and says so to a verified one', async () => {
      const { token } = await t.register('student')
      const res = await t.request<{ data: { status: string } }>('GET', '/api/v1/auth/email/verify/resend', { token })
      expect(res.status).toBe(202)
      expect(res.body.data.status).toBe('queued')
      const staff = await t.internalUser()
      const verified = await t.request<{ data: { status: string } }>('GET', '/api/v1/auth/email/verify/resend', { token: staff.token })
      expect(verified.body.data.status).toBe('already_verified')
    })
  })
})
