import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from './support/harness'

type Problem = { status: number; code: string; errors?: Record<string, string[]> }

describe.each(testDatabaseKinds())('input the database cannot store, on %s', (kind) => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestContext(kind)
  })
  afterAll(() => t.close())

  it('refuses a NUL in any JSON string or key with a 422 naming the field, and creates nothing', async () => {
    const res = await t.request<Problem>('POST', '/api/auth/register', {
      body: { email: 'nul@example.com', password: 'password123', firstname: 'A\u0000B', lastname: 'C', role: 'student', country: 'GB', address: { line1: 'x', city: 'y', postcode: 'SW1A 1AA', ['li\u0000ne2']: 'z' } },
    })
    expect(res.status).toBe(422)
    expect(res.body.code).toBe('validation_failed')
    expect(Object.keys(res.body.errors!).sort()).toEqual(['address', 'firstname'])
    expect(await t.db.selectFrom('users').select('id').where('email', '=', 'nul@example.com').execute()).toEqual([])
  })

  it('refuses a NUL or broken percent-encoding in the URL with a 400', async () => {
    for (const url of ['/api/users/a%00b', '/api/users/x%00y/validate', '/api/countries?page=1%00', '/api/users/%E0%A4%A']) {
      const res = await t.request<Problem>('GET', url)
      expect(res.status, url).toBe(400)
      expect(res.body.code).toBe('malformed_request')
    }
  })

  it('refuses dates the database has no room for, such as year 0', async () => {
    const res = await t.request<Problem>('POST', '/api/auth/register', {
      body: { email: 'year0@example.com', password: 'password123', firstname: 'A', lastname: 'B', role: 'student', country: 'GB', date_of_birth: '0000-01-01' },
    })
    expect(res.status).toBe(422)
    expect(res.body.errors?.date_of_birth).toBeDefined()
  })
})
