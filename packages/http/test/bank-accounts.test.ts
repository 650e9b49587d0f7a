import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from './support/harness'

type Account = { id: number; account_holder_name: string; sort_code: string; last4: string; is_default: boolean; linked: boolean; linked_at: string | null }
type Problem = { code: string; errors?: Record<string, string[]> }
const details = { account_holder_name: 'Ada Tutor', sort_code: '12-34-56', account_number: '12345678' }

describe.each(testDatabaseKinds())('bank accounts on %s', (kind) => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestContext(kind)
  })
  afterAll(async () => {
    await t.close()
  })
  const add = (token: string | undefined, body: unknown = details) => t.request<{ data: Account }>('POST', '/api/bank-accounts', { token, body })
  const list = (token?: string) => t.request<{ data: Account[] }>('GET', '/api/bank-accounts', { token })

  it('adds an account keeping only the last four digits; the first is the default', async () => {
    const tutor = await t.register('tutor')
    const res = await add(tutor.token)
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({ account_holder_name: 'Ada Tutor', sort_code: '12-34-56', last4: '5678', is_default: true, linked: false, linked_at: null })
    const second = await add(tutor.token, { ...details, sort_code: '654321', account_number: '87654321' })
    expect(second.body.data).toMatchObject({ sort_code: '65-43-21', is_default: false })
    const row = await t.db.selectFrom('bank_accounts').selectAll().where('id', '=', res.body.data.id).executeTakeFirstOrThrow()
    expect(JSON.stringify(row)).not.toContain('12345678')
    expect(row.processor_token).toMatch(/^btok_/)
    expect(JSON.stringify(res.body)).not.toMatch(/btok_|acct_/)
    expect((await list(tutor.token)).body.data).toHaveLength(2)
  })

  it('pages the list like every list (CONTRACT §17): meta, page and per_page, out of range a 422', async () => {
    const tutor = await t.register('tutor')
    expect((await add(tutor.token)).status).toBe(201)
    expect((await add(tutor.token, { ...details, account_number: '87654321' })).status).toBe(201)
    const first = await t.request<{ data: Account[]; meta: unknown }>('GET', '/api/bank-accounts?per_page=1', { token: tutor.token })
    expect(first.body.meta).toEqual({ current_page: 1, per_page: 1, total: 2, last_page: 2 })
    expect(first.body.data.map((a) => a.last4)).toEqual(['5678'])
    const second = await t.request<{ data: Account[] }>('GET', '/api/bank-accounts?page=2&per_page=1', { token: tutor.token })
    expect(second.body.data.map((a) => a.last4)).toEqual(['4321'])
    expect((await list(tutor.token)).body).toMatchObject({ meta: { current_page: 1, per_page: 15, total: 2, last_page: 1 } })
    expect((await t.request('GET', '/api/bank-accounts?page=0', { token: tutor.token })).status).toBe(422)
  })

  it('refuses bad fields with 422 errors', async () => {
    const tutor = await t.register('tutor')
    const res = await t.request<Problem>('POST', '/api/bank-accounts', { token: tutor.token, body: { account_holder_name: '', sort_code: '12-34-5', account_number: '1234' } })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors ?? {}).sort()).toEqual(['account_holder_name', 'account_number', 'sort_code'])
    expect((await t.request<Problem>('POST', '/api/bank-accounts', { token: tutor.token, body: { ...details, iban: 'x' } })).status).toBe(422)
    expect((await t.request<Problem>('PUT', '/api/bank-accounts/1', { token: tutor.token, body: {} })).status).toBe(422)
  })

  it('renames, changes the default and soft-deletes, passing the default on', async () => {
    const tutor = await t.register('tutor')
    const first = (await add(tutor.token)).body.data
    const second = (await add(tutor.token, { ...details, account_number: '11112222' })).body.data
    const renamed = await t.request<{ data: Account }>('PUT', `/api/bank-accounts/${second.id}`, { token: tutor.token, body: { account_holder_name: 'A Tutor', is_default: true } })
    expect(renamed.status).toBe(200)
    expect(renamed.body.data).toMatchObject({ account_holder_name: 'A Tutor', is_default: true })
    expect((await list(tutor.token)).body.data.filter((a) => a.is_default).map((a) => a.id)).toEqual([second.id])
    expect((await t.request('DELETE', `/api/bank-accounts/${second.id}`, { token: tutor.token })).status).toBe(204)
    const left = (await list(tutor.token)).body.data
    expect(left.map((a) => [a.id, a.is_default])).toEqual([[first.id, true]])
    const row = await t.db.selectFrom('bank_accounts').select('deleted_at').where('id', '=', second.id).executeTakeFirstOrThrow()
    expect(row.deleted_at).not.toBeNull()
  })

  it('walks authorisation: anonymous 401, non-tutors 403, another tutor and staff 404', async () => {
    const owner = await t.register('tutor')
    const other = await t.register('tutor')
    const student = await t.register('student')
    const staff = await t.internalUser()
    const account = (await add(owner.token)).body.data
    expect((await list()).status).toBe(401)
    expect((await add(undefined)).status).toBe(401)
    expect((await list(student.token)).status).toBe(403)
    expect((await add(student.token)).status).toBe(403)
    expect((await list(staff.token)).status).toBe(403)
    for (const caller of [other, staff, student]) {
      expect((await t.request('PUT', `/api/bank-accounts/${account.id}`, { token: caller.token, body: { is_default: true } })).status).toBe(404)
      expect((await t.request('DELETE', `/api/bank-accounts/${account.id}`, { token: caller.token })).status).toBe(404)
    }
    expect((await list(other.token)).body.data).toEqual([])
  })

  it('lets staff link an account to a connected account, once; others may not', async () => {
    const tutor = await t.register('tutor')
    const staff = await t.internalUser()
    const first = (await add(tutor.token)).body.data
    const second = (await add(tutor.token, { ...details, account_number: '33334444' })).body.data
    const link = (token: string | undefined, id: number) => t.request<{ data: Account }>('POST', '/api/bank-accounts/link', { token, body: { bank_account_id: id } })
    expect((await link(undefined, first.id)).status).toBe(401)
    expect((await link(tutor.token, first.id)).status).toBe(403)
    expect((await link(staff.token, 999999)).status).toBe(404)
    expect((await t.request<Problem>('POST', '/api/bank-accounts/link', { token: staff.token, body: { bank_account_id: 'x' } })).status).toBe(422)

    const linked = await link(staff.token, first.id)
    expect(linked.status).toBe(200)
    expect(linked.body.data.linked).toBe(true)
    const again = await link(staff.token, first.id)
    expect(again.body.data.linked_at).toBe(linked.body.data.linked_at)
    await link(staff.token, second.id)
    const rows = await t.db.selectFrom('bank_accounts').selectAll().where('user_id', '=', tutor.user.id).orderBy('id').execute()
    expect(rows.every((r) => r.processor_bank_account_id?.startsWith('ba_') && r.processor_token === null)).toBe(true)
    // One connected account per tutor: the second link reuses the first's.
    expect(rows[1]!.processor_account_id).toBe(rows[0]!.processor_account_id)
    expect((await list(tutor.token)).body.data.every((a) => a.linked)).toBe(true)
  })
})
