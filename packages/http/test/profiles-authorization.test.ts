import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from './support/harness'

type Role = 'student' | 'parent' | 'tutor'
type Caller = { token: string; user: { id: number } }
type Listed = { data: Array<{ id: number }> }
type One = { data: { id: number } }

let deviceCounter = 0
/** Every collection a user keeps, with a valid body to create one record and to change it. */
const COLLECTIONS: Array<{ path: string; role: Role; create: () => object; change: object }> = [
  {
    path: '/api/v1/education',
    role: 'student',
    create: () => ({ institution: 'Leeds', qualification: 'BSc', start_year: 2010 }),
    change: { end_year: 2013 },
  },
  {
    path: '/api/v1/professions',
    role: 'tutor',
    create: () => ({ title: 'Teacher', start_date: '2015-09-01' }),
    change: { organisation: 'Leeds Grammar' },
  },
  { path: '/api/v1/children', role: 'parent', create: () => ({ firstname: 'Kit', lastname: 'Doe' }), change: { firstname: 'Kat' } },
  {
    path: '/api/v1/addresses',
    role: 'student',
    create: () => ({ line1: '1 High St', city: 'York', postcode: 'YO1 7HH' }),
    change: { city: 'Leeds' },
  },
  { path: '/api/v1/mobile-numbers', role: 'student', create: () => ({ number: '+447700900001' }), change: { number: '+447700900002' } },
  {
    path: '/api/v1/user-devices',
    role: 'student',
    create: () => ({ platform: 'ios', push_token: `token-${++deviceCounter}-${Date.now()}` }),
    change: { platform: 'android' },
  },
  {
    path: '/api/social-links',
    role: 'tutor',
    create: () => ({ platform: 'website', url: 'https://ada.example.com' }),
    change: { url: 'https://ada.example.org' },
  },
]

describe.each(testDatabaseKinds())('profile routes authorization on %s', (kind) => {
  let t: TestContext
  let internal: Caller
  const owners = {} as Record<Role, Caller>
  const others = {} as Record<Role, Caller>

  beforeAll(async () => {
    t = await createTestContext(kind)
    internal = await t.internalUser()
    for (const role of ['student', 'parent', 'tutor'] as const) {
      owners[role] = await t.register(role)
      others[role] = await t.register(role)
    }
  })
  afterAll(() => t.close())

  const create = async (path: string, owner: Caller, body: object) => {
    const res = await t.request<One>('POST', path, { token: owner.token, body })
    expect(res.status, res.text).toBe(201)
    return res.body.data.id
  }

  describe.each(COLLECTIONS)('$path', ({ path, role, create: body, change }) => {
    const isPublicRead = path === '/api/social-links'

    it('GET: the owner sees their record, another user only their own, internal staff any user by user_id', async () => {
      const owner = owners[role]
      const id = await create(path, owner, body())
      const ids = (res: { body: Listed }) => res.body.data.map((r) => r.id)

      const own = await t.request<Listed>('GET', path, { token: owner.token })
      expect(own.status).toBe(200)
      expect(ids(own)).toContain(id)

      const other = await t.request<Listed>('GET', path, { token: others[role].token })
      expect(other.status).toBe(200)
      expect(ids(other)).not.toContain(id)

      const staff = await t.request<Listed>('GET', `${path}?user_id=${owner.user.id}`, { token: internal.token })
      expect(staff.status).toBe(200)
      expect(ids(staff)).toContain(id)

      const nosy = await t.request('GET', `${path}?user_id=${owner.user.id}`, { token: others[role].token })
      const anonymous = await t.request('GET', `${path}?user_id=${owner.user.id}`)
      if (isPublicRead) {
        expect(nosy.status).toBe(200)
        expect(anonymous.status).toBe(200)
        expect(ids(anonymous as { body: Listed })).toContain(id)
      } else {
        expect(nosy.status).toBe(404)
        expect(anonymous.status).toBe(401)
      }
    })

    it('POST: the owner adds, internal staff add for a user, another user gets 404, anonymous 401', async () => {
      const owner = owners[role]
      expect((await t.request('POST', path, { token: owner.token, body: body() })).status).toBe(201)
      const staff = await t.request<{ data: Record<string, unknown> }>('POST', `${path}?user_id=${owner.user.id}`, {
        token: internal.token,
        body: body(),
      })
      expect(staff.status).toBe(201)
      expect(staff.body.data[path === '/api/v1/children' ? 'parent_id' : 'user_id']).toBe(owner.user.id)
      const nosy = await t.request('POST', `${path}?user_id=${owner.user.id}`, { token: others[role].token, body: body() })
      expect(nosy.status).toBe(404)
      expect((await t.request('POST', path, { body: body() })).status).toBe(401)
    })

    it('PUT: the owner and internal staff change it, another user gets 404, anonymous 401', async () => {
      const id = await create(path, owners[role], body())
      expect((await t.request('PUT', `${path}/${id}`, { token: owners[role].token, body: change })).status).toBe(200)
      expect((await t.request('PUT', `${path}/${id}`, { token: internal.token, body: change })).status).toBe(200)
      const nosy = await t.request<{ code: string }>('PUT', `${path}/${id}`, { token: others[role].token, body: change })
      expect(nosy.status).toBe(404)
      expect(nosy.body.code).toBe('not_found')
      expect((await t.request('PUT', `${path}/${id}`, { body: change })).status).toBe(401)
    })

    it('refuses unknown fields on POST and PUT, a wrong type on PUT, and a bad page on GET, with 422 and field errors', async () => {
      const owner = owners[role]
      const id = await create(path, owner, body())
      type Problem = { code: string; errors: Record<string, string[]> }
      const post = await t.request<Problem>('POST', path, { token: owner.token, body: { ...body(), id: 1, user_id: 2 } })
      expect(post.status).toBe(422)
      expect(post.body.errors).toEqual({ id: ['is not an accepted field'], user_id: ['is not an accepted field'] })
      const put = await t.request<Problem>('PUT', `${path}/${id}`, { token: owner.token, body: { ...change, owner: 3 } })
      expect(put.status).toBe(422)
      expect(put.body.errors).toEqual({ owner: ['is not an accepted field'] })
      const [field] = Object.keys(change)
      const wrongType = await t.request<Problem>('PUT', `${path}/${id}`, { token: owner.token, body: { [field!]: { nested: true } } })
      expect(wrongType.status).toBe(422)
      expect(Object.keys(wrongType.body.errors)).toEqual([field])
      const page = await t.request<Problem>('GET', `${path}?page=0&per_page=101&user_id=x`, { token: owner.token })
      expect(page.status).toBe(422)
      expect(Object.keys(page.body.errors).sort()).toEqual(['page', 'per_page', 'user_id'])
      const malformed = await t.request<Problem>('POST', path, { token: owner.token, raw: 'not json', headers: { 'content-type': 'application/json' } })
      expect(malformed.status).toBe(400)
    })

    it('PUT and DELETE of an id that does not exist answer the same 404 as another user\'s record', async () => {
      const owner = owners[role]
      expect((await t.request('PUT', `${path}/987654321`, { token: owner.token, body: change })).status).toBe(404)
      expect((await t.request('DELETE', `${path}/987654321`, { token: owner.token })).status).toBe(404)
      expect((await t.request('DELETE', `${path}/not-a-number`, { token: owner.token })).status).toBe(404)
    })

    it('DELETE: the owner and internal staff remove it, another user gets 404, anonymous 401', async () => {
      const owner = owners[role]
      const mine = await create(path, owner, body())
      const forStaff = await create(path, owner, body())
      expect((await t.request('DELETE', `${path}/${forStaff}`, { token: others[role].token })).status).toBe(404)
      expect((await t.request('DELETE', `${path}/${forStaff}`)).status).toBe(401)
      expect((await t.request('DELETE', `${path}/${forStaff}`, { token: internal.token })).status).toBe(204)
      const removed = await t.request('DELETE', `${path}/${mine}`, { token: owner.token })
      expect(removed.status).toBe(204)
      expect(removed.text).toBe('')
      expect((await t.request('DELETE', `${path}/${mine}`, { token: owner.token })).status).toBe(404)
    })
  })

  describe('one-per-user records', () => {
    for (const path of ['/api/v1/personal-details', '/api/v1/profiles']) {
      const change = path === '/api/v1/profiles' ? { bio: 'Hello' } : { gender: 'female' }

      it(`${path}: GET lists exactly the caller's one, internal staff any user's, 404 for another, 401 anonymous`, async () => {
        const owner = owners.student
        const own = await t.request<{ data: Array<{ user_id: number }> }>('GET', path, { token: owner.token })
        expect(own.status).toBe(200)
        expect(own.body.data.map((r) => r.user_id)).toEqual([owner.user.id])
        const staff = await t.request<{ data: Array<{ user_id: number }> }>('GET', `${path}?user_id=${owner.user.id}`, { token: internal.token })
        expect(staff.body.data.map((r) => r.user_id)).toEqual([owner.user.id])
        expect((await t.request('GET', `${path}?user_id=${owner.user.id}`, { token: others.student.token })).status).toBe(404)
        expect((await t.request('GET', `${path}?user_id=999999`, { token: internal.token })).status).toBe(404)
        expect((await t.request('GET', path)).status).toBe(401)
      })

      it(`${path}/{id}: PUT by the owner and internal staff, 404 for another user, 401 anonymous`, async () => {
        const owner = owners.tutor
        const id = (await t.request<Listed>('GET', path, { token: owner.token })).body.data[0]!.id
        expect((await t.request('PUT', `${path}/${id}`, { token: owner.token, body: change })).status).toBe(200)
        expect((await t.request('PUT', `${path}/${id}`, { token: internal.token, body: change })).status).toBe(200)
        expect((await t.request('PUT', `${path}/${id}`, { token: others.tutor.token, body: change })).status).toBe(404)
        expect((await t.request('PUT', `${path}/${id}`, { body: change })).status).toBe(401)
      })
    }
  })

  describe('children are for parents', () => {
    it('refuses a child to a student, a tutor and internal staff for themselves (403), but lets staff add one for a parent', async () => {
      const child = { firstname: 'Kit', lastname: 'Doe' }
      for (const caller of [owners.student, owners.tutor, internal]) {
        const res = await t.request<{ code: string }>('POST', '/api/v1/children', { token: caller.token, body: child })
        expect(res.status).toBe(403)
        expect(res.body.code).toBe('forbidden')
      }
      const forTutor = await t.request('POST', `/api/v1/children?user_id=${owners.tutor.user.id}`, { token: internal.token, body: child })
      expect(forTutor.status).toBe(403)
      const forParent = await t.request('POST', `/api/v1/children?user_id=${owners.parent.user.id}`, { token: internal.token, body: child })
      expect(forParent.status).toBe(201)
    })

    it('lists no children for someone who is not a parent', async () => {
      const res = await t.request<Listed>('GET', '/api/v1/children', { token: owners.student.token })
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual([])
    })
  })

  it('asks for a token before it looks at the body', async () => {
    const res = await t.request<{ code: string }>('POST', '/api/v1/education', { body: { nonsense: true } })
    expect(res.status).toBe(401)
    expect(res.body.code).toBe('unauthenticated')
  })
})
