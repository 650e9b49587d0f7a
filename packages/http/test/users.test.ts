import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from './support/harness'
import { fakeClock } from '@tutoring/testkit'

type Problem = { status: number; code: string; errors?: Record<string, string[]> }
type UserBody = { data: Record<string, unknown> & { id: number; username: string } }

describe.each(testDatabaseKinds())('users on %s', (kind) => {
  let t: TestContext
  const clock = fakeClock(new Date('2026-11-22T10:00:00Z'))
  beforeAll(async () => {
    t = await createTestContext(kind, {}, { clock })
  })
  afterAll(() => t.close())

  describe('GET /api/users/{email}/validate', () => {
    it('says whether an email is registered, case and blanks aside', async () => {
      const { email } = await t.register('student')
      const known = await t.request<{ data: { email: string; registered: boolean } }>('GET', `/api/users/${encodeURIComponent(` ${email.toUpperCase()}`)}/validate`)
      expect(known.status).toBe(200)
      expect(known.body).toEqual({ data: { email, registered: true } })
      const unknown = await t.request('GET', '/api/users/nobody.here@example.com/validate')
      expect(unknown.body).toEqual({ data: { email: 'nobody.here@example.com', registered: false } })
    })

    it('refuses something that is not an email with 422', async () => {
      const res = await t.request<Problem>('GET', '/api/users/not-an-email/validate')
      expect(res.status).toBe(422)
      expect(res.body).toMatchObject({ code: 'validation_failed', errors: { email: ['must be a valid email address'] } })
    })
  })

  describe('GET /api/users/{username}', () => {
    it('answers the public profile of a tutor who shows it: abbreviated last name, no email', async () => {
      const { user } = await t.register('tutor', { firstname: 'Grace', lastname: 'hopper' })
      await t.db.updateTable('profiles').set({ is_visible: true }).where('user_id', '=', user.id).execute()
      const { username } = await t.db.selectFrom('users').select('username').where('id', '=', user.id).executeTakeFirstOrThrow()
      const res = await t.request<UserBody>('GET', `/api/users/${username.toUpperCase()}`)
      expect(res.status).toBe(200)
      const profile = await t.request<UserBody>('GET', `/api/tutors/${user.id}/profile`)
      expect(res.body.data).toEqual({ ...profile.body.data, role_id: 3, role: 'tutor' })
      expect(res.body.data).toMatchObject({
        id: user.id,
        username: expect.stringMatching(/^grace\.hopper/),
        firstname: 'Grace',
        lastname: 'H.',
        joined_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/),
        is_visible: true,
        overall_rating: null,
        review_count: 0,
      })
      expect(JSON.stringify(res.body)).not.toContain(user.email)
    })

    it("answers a hidden tutor's public profile as /api/tutors/{id}/profile does: visibility gates search only", async () => {
      const { user } = await t.register('tutor', { firstname: 'Ada', lastname: 'Hidden' })
      await t.db.updateTable('profiles').set({ is_visible: false }).where('user_id', '=', user.id).execute()
      const { username } = await t.db.selectFrom('users').select('username').where('id', '=', user.id).executeTakeFirstOrThrow()
      const byId = await t.request<UserBody>('GET', `/api/tutors/${user.id}/profile`)
      const byName = await t.request<UserBody>('GET', `/api/users/${username}`)
      expect(byId.status).toBe(200)
      expect(byName.status).toBe(200)
      expect(byName.body.data).toEqual({ ...byId.body.data, role_id: 3, role: 'tutor' })
      expect(byName.body.data.is_visible).toBe(false)
    })

    it('answers 404 for an unknown username and for a deleted user', async () => {
      expect((await t.request<Problem>('GET', '/api/users/no.such.handle')).body).toMatchObject({ status: 404, code: 'not_found' })
      const { token, user } = await t.register('student')
      const username = (await t.request<UserBody>('GET', `/api/v1/users/${user.id}`, { token })).body.data.username
      expect((await t.request('GET', `/api/users/${username}`)).status).toBe(200)
      expect((await t.request('DELETE', '/api/auth', { token })).status).toBe(204)
      expect((await t.request('GET', `/api/users/${username}`)).status).toBe(404)
    })
  })

  describe('GET /api/users/username/claim/{id} (signed)', () => {
    const claimLink = (userId: number, username: string, validForMs = 3_600_000) =>
      t.infra.urlSigner.sign(`/api/users/username/claim/${userId}?username=${encodeURIComponent(username)}`, new Date(clock.now().getTime() + validForMs))

    it('gives the user the handle the link offers', async () => {
      const { user, token } = await t.register('student')
      const res = await t.request<UserBody>('GET', claimLink(user.id, 'the.chosen.one'))
      expect(res.status).toBe(200)
      expect(res.body.data).toMatchObject({ id: user.id, username: 'the.chosen.one' })
      expect((await t.request<UserBody>('GET', `/api/v1/users/${user.id}`, { token })).body.data.username).toBe('the.chosen.one')
    })

    it('refuses a tampered, unsigned or expired link with 403 invalid_signature and changes nothing', async () => {
      const { user, token } = await t.register('student')
      const link = claimLink(user.id, 'honest.handle')
      const forged = [
        link.replace('honest.handle', 'forged.handle'),
        link.replace(`/claim/${user.id}`, `/claim/${user.id + 1}`),
        link.replace(/signature=[0-9a-f]+/, 'signature=' + '0'.repeat(64)),
        link.replace(/&signature=[0-9a-f]+/, ''),
        link.replace(/expires=\d+/, (m) => `expires=${Number(m.slice(8)) + 60}`),
      ]
      for (const url of forged) {
        const res = await t.request<Problem>('GET', url)
        expect(res.status, url).toBe(403)
        expect(res.body.code).toBe('invalid_signature')
      }
      const expiring = claimLink(user.id, 'late.handle', 60_000)
      clock.advance(61_000)
      expect((await t.request<Problem>('GET', expiring)).status).toBe(403)
      const me = await t.request<UserBody>('GET', `/api/v1/users/${user.id}`, { token })
      expect(me.body.data.username).not.toMatch(/forged|honest|late/)
    })

    it('is emailed to whoever was given a generated username when the one they wanted is freed', async () => {
      const name = { firstname: 'Edsger', lastname: `Dijkstra${Date.now()}` }
      const holder = await t.register('student', name)
      const [late, later] = [await t.register('parent', name), await t.register('student', name)]
      const unrelated = await t.register('student', { firstname: 'Edsger', lastname: 'Other' })
      const handle = async (id: number, token: string) => (await t.request<UserBody>('GET', `/api/v1/users/${id}`, { token })).body.data.username
      const wanted = await handle(holder.user.id, holder.token)
      expect(await handle(late.user.id, late.token)).toMatch(new RegExp(`^${wanted.replace(/\./g, '\\.')}\\.[a-z0-9]{4}$`))

      expect((await t.request('DELETE', '/api/auth', { token: holder.token })).status).toBe(204)
      const offers = (await t.outbox({ kind: 'email', topic: 'username_claimable' })).map(
        (e) => e.payload as { to: string; data: { claimable: string; claimUrl: string; expiresAt: string } },
      )
      const mine = offers.filter((o) => o.data.claimable === wanted)
      expect(mine.map((o) => o.to)).toEqual([late.email, later.email])
      expect(offers.map((o) => o.to)).not.toContain(unrelated.email)
      expect(new Date(mine[0]!.data.expiresAt).getTime()).toBe(clock.now().getTime() + 7 * 86_400_000)

      // The first to claim it takes it; the other offer is then refused.
      const path = (url: string) => url.replace('http://api.test', '')
      const claimed = await t.request<UserBody>('GET', path(mine[1]!.data.claimUrl))
      expect(claimed.status, claimed.text).toBe(200)
      expect(claimed.body.data).toMatchObject({ id: later.user.id, username: wanted })
      const refused = await t.request<Problem>('GET', path(mine[0]!.data.claimUrl))
      expect(refused.body.errors).toEqual({ username: ['has already been taken'] })
      expect((await t.request<UserBody>('GET', `/api/users/${wanted}`)).body.data.id).toBe(later.user.id)
      expect(await handle(late.user.id, late.token)).not.toBe(wanted)
    })

    it('is offered too when its holder moves to another username', async () => {
      const name = { firstname: 'Barbara', lastname: `Liskov${Date.now()}` }
      const holder = await t.register('student', name)
      const waiting = await t.register('student', name)
      const wanted = (await t.request<UserBody>('GET', `/api/v1/users/${holder.user.id}`, { token: holder.token })).body.data.username
      const moved = await t.request('PUT', `/api/users/${holder.user.id}`, { token: holder.token, body: { username: `${wanted}-moved` } })
      expect(moved.status, moved.text).toBe(200)
      const offers = (await t.outbox({ kind: 'email', topic: 'username_claimable' })).map((e) => e.payload as { to: string; data: { claimable: string } })
      expect(offers.filter((o) => o.data.claimable === wanted).map((o) => o.to)).toEqual([waiting.email])
    })

    it('refuses a handle taken meanwhile with 422 and an unknown user with 404', async () => {
      const first = await t.register('student')
      const second = await t.register('student')
      expect((await t.request('GET', claimLink(first.user.id, 'popular.name'))).status).toBe(200)
      const taken = await t.request<Problem>('GET', claimLink(second.user.id, 'popular.name'))
      expect(taken.status).toBe(422)
      expect(taken.body.errors).toEqual({ username: ['has already been taken'] })
      expect((await t.request('GET', claimLink(99_999_999, 'ghost.name'))).status).toBe(404)
    })
  })

  describe('GET /api/v1/users/{id}', () => {
    it('answers the user themselves with the full resource', async () => {
      const { user, token, email } = await t.register('parent')
      const res = await t.request<UserBody>('GET', `/api/v1/users/${user.id}`, { token })
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual({
        id: user.id,
        email,
        username: expect.any(String),
        firstname: 'Test',
        lastname: expect.any(String),
        role_id: 2,
        role: 'parent',
        country: 'GB',
        email_verified_at: null,
        created_at: expect.any(String),
      })
    })

    it('answers another user as an unknown id (404), internal staff, and 401 without a token', async () => {
      const owner = await t.register('student')
      const other = await t.register('tutor')
      const staff = await t.internalUser()
      const nosy = await t.request<Problem>('GET', `/api/v1/users/${owner.user.id}`, { token: other.token })
      expect(nosy.body).toMatchObject({ status: 404, code: 'not_found' })
      expect(nosy.text).toBe((await t.request('GET', '/api/v1/users/99999999', { token: other.token })).text)
      expect((await t.request<UserBody>('GET', `/api/v1/users/${owner.user.id}`, { token: staff.token })).body.data.id).toBe(owner.user.id)
      expect((await t.request<Problem>('GET', `/api/v1/users/${owner.user.id}`)).body).toMatchObject({ status: 401, code: 'unauthenticated' })
    })

    it('answers 404 for an unknown, malformed or deleted id', async () => {
      const staff = await t.internalUser()
      expect((await t.request('GET', '/api/v1/users/99999999', { token: staff.token })).status).toBe(404)
      expect((await t.request('GET', '/api/v1/users/abc', { token: staff.token })).status).toBe(404)
      const gone = await t.register('student')
      await t.request('DELETE', '/api/auth', { token: gone.token })
      expect((await t.request<Problem>('GET', `/api/v1/users/${gone.user.id}`, { token: staff.token })).body.code).toBe('not_found')
    })
  })

  describe.each(['/api/users', '/api/v1/users'])('PUT %s/{id}', (base) => {
    it('lets the user change their own names, username and country', async () => {
      const { user, token } = await t.register('student')
      const handle = `renamed.${user.id}`
      const res = await t.request<UserBody>('PUT', `${base}/${user.id}`, {
        token,
        body: { firstname: ' Ada ', lastname: 'King', username: handle.toUpperCase(), country: 'ie' },
      })
      expect(res.status).toBe(200)
      expect(res.body.data).toMatchObject({ id: user.id, firstname: 'Ada', lastname: 'King', username: handle, country: 'IE' })
      const row = await t.db.selectFrom('users').select(['firstname', 'username', 'country']).where('id', '=', user.id).executeTakeFirstOrThrow()
      expect(row).toEqual({ firstname: 'Ada', username: handle, country: 'IE' })
    })

    it('answers another user as an unknown id (404), lets internal staff, and 401 without a token', async () => {
      const owner = await t.register('student')
      const other = await t.register('student')
      const staff = await t.internalUser()
      const nosy = await t.request<Problem>('PUT', `${base}/${owner.user.id}`, { token: other.token, body: { firstname: 'Mallory' } })
      expect(nosy.status).toBe(404)
      expect(nosy.body.code).toBe('not_found')
      expect((await t.request('PUT', `${base}/${owner.user.id}`, { body: { firstname: 'Nobody' } })).status).toBe(401)
      const byStaff = await t.request<UserBody>('PUT', `${base}/${owner.user.id}`, { token: staff.token, body: { lastname: 'Corrected' } })
      expect(byStaff.status).toBe(200)
      expect(byStaff.body.data.lastname).toBe('Corrected')
      const row = await t.db.selectFrom('users').select('firstname').where('id', '=', owner.user.id).executeTakeFirstOrThrow()
      expect(row.firstname).toBe('Test')
    })

    it('answers 404 for an unknown id', async () => {
      const staff = await t.internalUser()
      expect((await t.request<Problem>('PUT', `${base}/99999999`, { token: staff.token, body: { firstname: 'X' } })).body.code).toBe('not_found')
    })

    it('refuses a taken or malformed username, an unknown country and unknown fields with 422', async () => {
      const a = await t.register('student')
      const b = await t.register('student')
      const taken = (await t.request<UserBody>('GET', `/api/v1/users/${a.user.id}`, { token: a.token })).body.data.username
      const put = (body: unknown) => t.request<Problem>('PUT', `${base}/${b.user.id}`, { token: b.token, body })
      expect((await put({ username: taken.toUpperCase() })).body.errors).toEqual({ username: ['has already been taken'] })
      expect((await put({ username: 'no spaces allowed' })).status).toBe(422)
      expect((await put({ country: 'ZZ' })).body.errors).toEqual({ country: ['is not a known country code'] })
      const unknown = await put({ firstname: 'Bob', email: 'hijack@example.com', role_id: 200 })
      expect(unknown.status).toBe(422)
      expect(unknown.body.errors).toEqual({ email: ['is not an accepted field'], role_id: ['is not an accepted field'] })
      expect((await put({ firstname: '' })).body.errors).toHaveProperty('firstname')
      const row = await t.db.selectFrom('users').select(['firstname', 'email', 'role_id']).where('id', '=', b.user.id).executeTakeFirstOrThrow()
      expect(row).toEqual({ firstname: 'Test', email: b.email, role_id: 1 })
    })
  })
})
