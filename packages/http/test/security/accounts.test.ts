import { randomInt } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { freshAddress } from '../support/client-addresses'
import { createTestContext, type TestContext } from '../support/harness'
import { recordFinding, Tally } from '../support/findings'

type Problem = { status: number; code: string; errors?: Record<string, string[]> }


/** Issue 13, "Smaller holes", on accounts: names, passwords, what lookups reveal, and the login limit. */
describe.each(testDatabaseKinds())('accounts under attack, on %s', (kind) => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestContext(kind, { AUTH_THROTTLE_PER_MINUTE: '3' })
  })
  afterAll(() => t.close())

  const registration = (extra: Record<string, unknown>) => ({
    email: `input.${Date.now()}.${randomInt(1e9)}@example.com`,
    password: 'correct horse battery',
    firstname: 'Ada',
    lastname: 'Lovelace',
    role: 'parent',
    country: 'GB',
    ...extra,
  })

  it('refuses names with bidi or zero-width characters and passwords of blanks, with field errors', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'Accounts: deceptive names and blank passwords',
      tried: 'names with U+202E, U+2066, U+200B, U+200D, U+FEFF, U+0007 at registration, user update and children; passwords of 8 and 20 spaces at registration and reset',
      held: '422 naming the field; nothing stored',
    })
    const tally = new Tally()
    const names = ['Ad\u202emin', 'Ad\u2066min', 'Ad\u200bmin', 'Ad\u200dmin', 'Ad\ufeffa', 'Ad\u0007a']
    for (const bad of names) {
      for (const field of ['firstname', 'lastname'] as const) {
        const body = registration({ [field]: bad })
        const res = tally.send(await t.request<Problem>('POST', '/api/auth/register', { body }))
        expect(res.status, JSON.stringify(bad)).toBe(422)
        expect(Object.keys(res.body.errors ?? {})).toEqual([field])
        expect(await t.db.selectFrom('users').select('id').where('email', '=', body.email as string).execute()).toEqual([])
      }
    }
    const parent = await t.register('parent')
    const update = tally.send(await t.request<Problem>('PUT', `/api/v1/users/${parent.user.id}`, { token: parent.token, body: { firstname: 'Ad\u202emin' } }))
    expect([update.status, Object.keys(update.body.errors ?? {})]).toEqual([422, ['firstname']])
    const child = tally.send(await t.request<Problem>('POST', '/api/v1/children', { token: parent.token, body: { firstname: 'Bo\u200bb', lastname: 'Smith' } }))
    expect([child.status, Object.keys(child.body.errors ?? {})]).toEqual([422, ['firstname']])
    for (const password of [' '.repeat(8), ' '.repeat(20)]) {
      const res = tally.send(await t.request<Problem>('POST', '/api/auth/register', { body: registration({ password }) }))
      expect(res.body.errors).toEqual({ password: ['must not be only spaces'] })
      const reset = tally.send(await t.request<Problem>('POST', '/api/auth/reset', { from: freshAddress(), body: { email: parent.email, token: 'x'.repeat(43), password } }))
      expect(reset.body.errors).toMatchObject({ password: ['must not be only spaces'] })
    }
    // Blanks among other characters are still a fine password.
    expect(tally.send(await t.request('POST', '/api/auth/register', { body: registration({ password: '  two words  ' }) })).status).toBe(201)
    finding.figures = { requests: tally.requests, 'limits reached': tally.limitsReached }
  })

  it('answers staff and unknown handles alike (404), a tutor hidden or shown by the public profile, and another user\'s id as an unknown id', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'Accounts: enumeration through lookups',
      tried: 'GET /api/users/{username} of staff, a hidden tutor, a visible tutor and nobody; GET and PUT /api/v1/users/{id} of another user and of nobody',
      held: 'one identical 404 for staff, other users and unknowns; a tutor, hidden or shown, answers the public profile of GET /api/tutors/{id}/profile (visibility gates search only); oneself still answered',
    })
    const tally = new Tally()
    const handleOf = async (id: number) => (await t.db.selectFrom('users').select('username').where('id', '=', id).executeTakeFirstOrThrow()).username
    const staff = await t.internalUser()
    const hidden = await t.register('tutor')
    const shown = await t.register('tutor')
    await t.db.updateTable('profiles').set({ is_visible: true }).where('user_id', '=', shown.user.id).execute()
    const unknown = tally.send(await t.request('GET', '/api/users/no.such.person'))
    expect(unknown.status).toBe(404)
    const asStaff = tally.send(await t.request('GET', `/api/users/${await handleOf(staff.user.id)}`))
    expect([asStaff.status, asStaff.text]).toEqual([404, unknown.text])
    // CONTRACT §14: the public profile of a tutor is answered by both routes, hidden or not.
    for (const tutor of [hidden, shown]) {
      const byName = tally.send(await t.request<{ data: object }>('GET', `/api/users/${await handleOf(tutor.user.id)}`), [])
      const byId = await t.request<{ data: object }>('GET', `/api/tutors/${tutor.user.id}/profile`)
      expect(byName.status).toBe(200)
      expect(byName.body.data).toEqual({ ...byId.body.data, role_id: 3, role: 'tutor' })
    }

    const nosy = await t.register('student')
    for (const method of ['GET', 'PUT'] as const) {
      const body = method === 'PUT' ? { firstname: 'Mallory' } : undefined
      const other = tally.send(await t.request(method, `/api/v1/users/${shown.user.id}`, { token: nosy.token, body }))
      const nobody = tally.send(await t.request(method, '/api/v1/users/2147483000', { token: nosy.token, body }))
      expect([other.status, other.text]).toEqual([404, nobody.text])
      expect(tally.send(await t.request(method, `/api/v1/users/${nosy.user.id}`, { token: nosy.token, body }), []).status).toBe(200)
    }
    finding.figures = { requests: tally.requests, 'limits reached': tally.limitsReached }
  })

  it('lets nobody lock a person out by failing to log in as them', async ({ task }) => {
    const finding = recordFinding(task, {
      class: 'Accounts: lockout through the login limit',
      tried: "failed logins with a victim's email from an attacker's address past AUTH_THROTTLE_PER_MINUTE, then the victim logging in from elsewhere",
      held: 'the attacker gets 429; the victim logs in (the email is counted per address)',
    })
    const tally = new Tally()
    const victim = await t.register('student')
    const attacker = freshAddress()
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) statuses.push(tally.send(await t.request('POST', '/api/auth/login', { from: attacker, body: { email: victim.email, password: 'guess' } })).status)
    expect(statuses).toEqual([401, 401, 401, 429, 429])
    const login = tally.send(await t.request('POST', '/api/auth/login', { from: freshAddress(), body: { email: victim.email, password: victim.password } }))
    expect(login.status).toBe(200)
    finding.figures = { requests: tally.requests, 'limits reached': tally.limitsReached }
  })
})
