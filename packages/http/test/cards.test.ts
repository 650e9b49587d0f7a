import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startStripeStandIn, testDatabaseKinds, type StripeStandIn } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from './support/harness'

type Card = { id: number; brand: string; last4: string; exp_month: number; exp_year: number; is_default: boolean }
type Problem = { code: string; errors?: Record<string, string[]> }

describe.each(testDatabaseKinds())('cards on %s', (kind) => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestContext(kind)
  })
  afterAll(async () => {
    await t.close()
  })

  const add = (token: string | undefined, payment_method: unknown) => t.request<{ data: Card }>('POST', '/api/cards', { token, body: { payment_method } })
  const list = (token?: string) => t.request<{ data: Card[] }>('GET', '/api/cards', { token })
  const customerOf = async (userId: number) =>
    (await t.db.selectFrom('users').select('processor_customer_id').where('id', '=', userId).executeTakeFirstOrThrow()).processor_customer_id

  it('saves a card as the default, making a customer for a user who has none', async () => {
    const student = await t.register('student')
    expect(await customerOf(student.user.id)).toBeNull()
    const res = await add(student.token, 'pm_card_visa')
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({ brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034, is_default: true })
    expect(await customerOf(student.user.id)).toMatch(/^cus_offline_/)

    const second = await add(student.token, 'pm_card_mastercard')
    expect(second.body.data).toMatchObject({ brand: 'mastercard', is_default: true })
    const cards = (await list(student.token)).body.data
    expect(cards.map((c) => [c.brand, c.is_default])).toEqual([
      ['mastercard', true],
      ['visa', false],
    ])
    // A test token makes a new payment method each time, so it is another card.
    const again = await add(student.token, 'pm_card_visa')
    expect(again.body.data.id).not.toBe(res.body.data.id)
    expect((await list(student.token)).body.data).toHaveLength(3)
  })

  it('pages the list like every list (CONTRACT §17): meta, page and per_page, out of range a 422', async () => {
    const student = await t.register('student')
    for (const pm of ['pm_card_visa', 'pm_card_mastercard', 'pm_card_amex']) expect((await add(student.token, pm)).status).toBe(201)
    const first = await t.request<{ data: Card[]; meta: unknown }>('GET', '/api/cards?per_page=2', { token: student.token })
    expect(first.body.meta).toEqual({ current_page: 1, per_page: 2, total: 3, last_page: 2 })
    expect(first.body.data.map((c) => c.brand)).toEqual(['amex', 'mastercard'])
    const second = await t.request<{ data: Card[]; meta: unknown }>('GET', '/api/cards?page=2&per_page=2', { token: student.token })
    expect(second.body.data.map((c) => c.brand)).toEqual(['visa'])
    expect((await list(student.token)).body).toMatchObject({ meta: { current_page: 1, per_page: 15, total: 3, last_page: 1 } })
    expect((await t.request('GET', '/api/cards?per_page=101', { token: student.token })).status).toBe(422)
  })

  it('refuses a declined card and an invalid id with field errors, saving nothing', async () => {
    const student = await t.register('student')
    const declined = await t.request<Problem>('POST', '/api/cards', { token: student.token, body: { payment_method: 'pm_card_chargeDeclined' } })
    expect(declined.status).toBe(422)
    expect(declined.body.errors?.payment_method).toEqual(['Your card was declined.'])
    const malformed = await t.request<Problem>('POST', '/api/cards', { token: student.token, body: { payment_method: 'visa 4242' } })
    expect(malformed.status).toBe(422)
    expect(malformed.body.errors?.payment_method).toBeDefined()
    const extra = await t.request<Problem>('POST', '/api/cards', { token: student.token, body: { payment_method: 'pm_card_visa', owner: 1 } })
    expect(extra.status).toBe(422)
    expect((await list(student.token)).body.data).toEqual([])
  })

  it('makes another card the default and documents only true', async () => {
    const tutor = await t.register('tutor')
    const visa = (await add(tutor.token, 'pm_card_visa')).body.data
    await add(tutor.token, 'pm_card_amex')
    const res = await t.request<{ data: Card }>('PUT', `/api/cards/${visa.id}`, { token: tutor.token, body: { is_default: true } })
    expect(res.status).toBe(200)
    expect(res.body.data.is_default).toBe(true)
    expect((await list(tutor.token)).body.data.filter((c) => c.is_default).map((c) => c.id)).toEqual([visa.id])
    expect((await t.outbox({ kind: 'processor_sync', topic: 'card.make_default' })).length).toBeGreaterThan(0)
    const falsy = await t.request<Problem>('PUT', `/api/cards/${visa.id}`, { token: tutor.token, body: { is_default: false } })
    expect(falsy.status).toBe(422)
  })

  it('soft-deletes a card; the newest remaining card becomes the default', async () => {
    const student = await t.register('student')
    await add(student.token, 'pm_card_visa')
    const amex = (await add(student.token, 'pm_card_amex')).body.data
    const master = (await add(student.token, 'pm_card_mastercard')).body.data
    const res = await t.request('DELETE', `/api/cards/${master.id}`, { token: student.token })
    expect(res.status).toBe(204)
    const row = await t.db.selectFrom('cards').select(['deleted_at']).where('id', '=', master.id).executeTakeFirstOrThrow()
    expect(row.deleted_at).not.toBeNull()
    const cards = (await list(student.token)).body.data
    expect(cards.map((c) => c.id)).not.toContain(master.id)
    expect(cards.find((c) => c.is_default)?.id).toBe(amex.id)
    expect((await t.request('DELETE', `/api/cards/${master.id}`, { token: student.token })).status).toBe(404)
    expect((await t.outbox({ kind: 'processor_sync', topic: 'card.detach' })).length).toBeGreaterThan(0)
  })

  it('walks authorisation: anonymous 401, another user and staff 404', async () => {
    const owner = await t.register('parent')
    const other = await t.register('student')
    const staff = await t.internalUser()
    const card = (await add(owner.token, 'pm_card_visa')).body.data
    expect((await list()).status).toBe(401)
    expect((await add(undefined, 'pm_card_visa')).status).toBe(401)
    expect((await t.request('PUT', `/api/cards/${card.id}`, { body: { is_default: true } })).status).toBe(401)
    expect((await t.request('DELETE', `/api/cards/${card.id}`)).status).toBe(401)
    for (const caller of [other, staff]) {
      expect((await t.request('PUT', `/api/cards/${card.id}`, { token: caller.token, body: { is_default: true } })).status).toBe(404)
      expect((await t.request('DELETE', `/api/cards/${card.id}`, { token: caller.token })).status).toBe(404)
      expect((await list(caller.token)).body.data.map((c) => c.id)).not.toContain(card.id)
    }
    expect((await t.request('PUT', '/api/cards/999999', { token: owner.token, body: { is_default: true } })).status).toBe(404)
    expect((await list(owner.token)).body.data).toHaveLength(1)
  })

  it('validates a card without saving it, publicly', async () => {
    const ok = await t.request<{ data: { valid: boolean; brand: string; last4: string } }>('POST', '/api/cards/validate', { body: { payment_method: 'pm_card_amex' } })
    expect(ok.status).toBe(200)
    expect(ok.body.data).toEqual({ valid: true, brand: 'amex', last4: '8431', exp_month: 12, exp_year: 2034 })
    const bad = await t.request<Problem>('POST', '/api/cards/validate', { body: { payment_method: 'pm_card_chargeDeclinedExpiredCard' } })
    expect(bad.status).toBe(422)
    expect(bad.body.errors?.payment_method).toEqual(['Your card has expired.'])
    expect((await t.request<Problem>('POST', '/api/cards/validate', { body: {} })).status).toBe(422)
  })
})

describe('card validation throttle', () => {
  it('carries the stricter auth limit per client address', async () => {
    const t = await createTestContext('pglite', { AUTH_THROTTLE_PER_MINUTE: '2' })
    try {
      const call = () => t.request('POST', '/api/cards/validate', { body: { payment_method: 'pm_card_visa' }, from: '203.0.113.9' })
      expect((await call()).status).toBe(200)
      expect((await call()).status).toBe(200)
      const third = await call()
      expect(third.status).toBe(429)
      expect(third.headers.get('retry-after')).toBeTruthy()
    } finally {
      await t.close()
    }
  })
})

describe('cards against the Stripe stand-in', () => {
  let api: StripeStandIn
  let t: TestContext
  beforeAll(async () => {
    api = await startStripeStandIn()
    t = await createTestContext('pglite', { STRIPE_SECRET_KEY: api.secretKey, STRIPE_API_BASE: api.url })
  })
  afterAll(async () => {
    await t.close()
    await api.close()
  })

  it('attaches through the processor and answers its decline as a field error', async () => {
    const student = await t.register('student')
    const res = await t.request<{ data: Card }>('POST', '/api/cards', { token: student.token, body: { payment_method: 'pm_card_mastercard' } })
    expect(res.status).toBe(201)
    expect(api.seen(/POST \/v1\/payment_methods\/pm_card_mastercard\/attach/)).toHaveLength(1)
    expect(JSON.stringify(res.body)).not.toMatch(/cus_|pm_card/)
    const declined = await t.request<Problem>('POST', '/api/cards', { token: student.token, body: { payment_method: 'pm_card_chargeDeclined' } })
    expect(declined.status).toBe(422)
    expect(declined.body.errors?.payment_method).toEqual(['Your card was declined.'])
  })

  it('answers 503 processor_unavailable when the processor is down, saving nothing', async () => {
    const student = await t.register('student')
    api.failNext(3)
    const res = await t.request<Problem>('POST', '/api/cards/validate', { body: { payment_method: 'pm_card_visa' } })
    expect(res.status).toBe(503)
    expect(res.body.code).toBe('processor_unavailable')
    expect(res.headers.get('retry-after')).toBe('5')
    expect((await t.request<{ data: Card[] }>('GET', '/api/cards', { token: student.token })).body.data).toEqual([])
  })
})
