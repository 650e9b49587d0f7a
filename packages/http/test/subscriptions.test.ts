import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signStripePayload, startStripeStandIn, testDatabaseKinds, type StripeStandIn } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from './support/harness'

const SECRET = 'whsec_subscriptions_test'
type Sub = { id: number; status: string; valid: boolean; product_id: string; price_id: string; trial_period: number; trial_ends_at: string | null }
type Answer = { data: { outcome: string; reason: string | null } }
let counter = 0
const eventId = () => `evt_sub_${Date.now()}_${++counter}`

describe.each(testDatabaseKinds())('subscriptions on %s', (kind) => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestContext(kind, { STRIPE_SUBSCRIPTION_WEBHOOK_SECRET: SECRET, STRIPE_WEBHOOK_SECRET: 'whsec_payments_other' })
  })
  afterAll(async () => {
    await t.close()
  })

  const start = (token: string | undefined, body: unknown = {}) => t.request<{ data: Sub }>('POST', '/api/subscriptions', { token, body })
  const stored = (userId: number) => t.db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).orderBy('id').execute()
  const hook = (event: unknown, secret = SECRET) => {
    const raw = JSON.stringify(event)
    return t.request<Answer>('POST', '/api/subscriptions/webhooks', { raw, headers: { 'content-type': 'application/json', 'stripe-signature': signStripePayload(raw, secret) } })
  }
  const subEvent = (type: string, id: string, status: string, customer: string | null = null) => ({
    id: eventId(),
    type,
    data: { object: { id, object: 'subscription', status, customer, trial_end: null, items: { data: [{ current_period_end: 1_900_000_000 }] } } },
  })
  /** A registered tutor whose trial the outbox has copied to the (offline) processor. */
  async function syncedTutor() {
    const tutor = await t.register('tutor')
    await t.infra.deliverOutbox(100)
    const [row] = await stored(tutor.user.id)
    return { ...tutor, processorId: row!.processor_subscription_id! }
  }

  it('answers the live trial registration started, unchanged, and refuses non-tutors', async () => {
    const tutor = await t.register('tutor')
    const res = await start(tutor.token)
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ status: 'trialing', valid: true })
    expect(await stored(tutor.user.id)).toHaveLength(1)
    expect((await start(undefined)).status).toBe(401)
    expect((await start((await t.register('student')).token)).status).toBe(403)
    expect((await start((await t.internalUser()).token)).status).toBe(403)
    const unknown = await t.request<{ errors: Record<string, string[]> }>('POST', '/api/subscriptions', { token: tutor.token, body: { price_id: 'price_nope' } })
    expect(unknown.status).toBe(422)
    expect(unknown.body.errors.price_id).toBeDefined()
    expect((await t.request('POST', '/api/subscriptions', { token: tutor.token, body: { plan: 1 } })).status).toBe(422)
  })

  it('takes an empty body, and answers the product: product_id, price_id and trial_period in days (CONTRACT §17)', async () => {
    const tutor = await t.register('tutor')
    const plan = await t.db.selectFrom('subscription_plans').selectAll().where('active', '=', true).orderBy('id').executeTakeFirstOrThrow()
    const product = { product_id: plan.product_id, price_id: plan.price_id, trial_period: plan.trial_period_days }
    const json = { 'content-type': 'application/json' }
    const answers = [
      await t.request<{ data: Sub }>('POST', '/api/subscriptions', { token: tutor.token }),
      await t.request<{ data: Sub }>('POST', '/api/subscriptions', { token: tutor.token, raw: '', headers: json }),
      await t.request<{ data: Sub }>('POST', '/api/subscriptions', { token: tutor.token, raw: '', headers: { 'content-type': 'application/json; charset=utf-8' } }),
      // fetch labels an empty string text/plain (and a server sees its Content-Length: 0)
      await t.request<{ data: Sub }>('POST', '/api/subscriptions', { token: tutor.token, raw: '', headers: { 'content-type': 'text/plain;charset=UTF-8', 'content-length': '0' } }),
      await t.request<{ data: Sub }>('POST', '/api/subscriptions', { token: tutor.token, raw: '{}', headers: json }),
    ]
    for (const res of answers) {
      expect(res.status, res.text).toBe(200)
      expect(res.body.data).toMatchObject({ status: 'trialing', ...product })
    }
    expect(await stored(tutor.user.id)).toHaveLength(1)
    // A body that is there must still be JSON.
    expect((await t.request('POST', '/api/subscriptions', { token: tutor.token, raw: 'price_id=x', headers: json })).status).toBe(400)
    expect((await t.request('POST', '/api/subscriptions', { token: tutor.token, raw: '{}', headers: { 'content-type': 'text/plain' } })).status).toBe(400)
  })

  it('starts a new trial after a cancellation, through web.api signed links too', async () => {
    const tutor = await syncedTutor()
    const deleted = await hook(subEvent('customer.subscription.deleted', tutor.processorId, 'canceled'))
    expect(deleted.body.data.outcome).toBe('handled')
    const [old] = await stored(tutor.user.id)
    expect(old).toMatchObject({ status: 'canceled' })
    expect(old!.deleted_at).not.toBeNull()
    const link = t.infra.urlSigner.sign(`/api/subscriptions?uid=${tutor.user.id}`, new Date(Date.now() + 3_600_000))
    const res = await t.request<{ data: Sub }>('POST', link, { body: {} })
    expect(res.status).toBe(201)
    expect(res.body.data.status).toBe('trialing')
    expect(new Date(res.body.data.trial_ends_at!).getTime()).toBeGreaterThan(Date.now())
    expect((await t.outbox({ kind: 'processor_sync', topic: 'subscription.create' })).length).toBeGreaterThan(0)
  })

  it('moves the stored status through the event map, and tutor details read it', async () => {
    const tutor = await syncedTutor()
    const staff = await t.internalUser()
    const status = async () => (await stored(tutor.user.id)).at(-1)!.status
    await hook(subEvent('customer.subscription.updated', tutor.processorId, 'active'))
    expect(await status()).toBe('active')
    await hook({ id: eventId(), type: 'invoice.payment_failed', data: { object: { object: 'invoice', amount_paid: 0, parent: { subscription_details: { subscription: tutor.processorId } } } } })
    expect(await status()).toBe('incomplete')
    const details = await t.request<{ data: { subscription: { status: string } } }>('GET', `/api/tutors/${tutor.user.id}`, { token: staff.token })
    expect(details.body.data.subscription.status).toBe('incomplete')
    await hook({ id: eventId(), type: 'invoice.payment_succeeded', data: { object: { object: 'invoice', amount_paid: 1500, subscription: tutor.processorId } } })
    expect(await status()).toBe('active')
    await hook(subEvent('customer.subscription.updated', tutor.processorId, 'unpaid'))
    expect(await status()).toBe('incomplete_expired')
    const after = await hook(subEvent('customer.subscription.updated', tutor.processorId, 'active'))
    expect(after.body.data).toMatchObject({ outcome: 'ignored', reason: 'not_applicable' })
    expect(await status()).toBe('incomplete_expired')
  })

  it("keeps a trial on the trial's zero invoice, and finds a subscription by customer before its id is stored", async () => {
    const tutor = await t.register('tutor')
    const customer = `cus_hook_${tutor.user.id}`
    await t.db.updateTable('users').set({ processor_customer_id: customer }).where('id', '=', tutor.user.id).execute()
    const created = await hook(subEvent('customer.subscription.created', 'sub_from_hook', 'trialing', customer))
    expect(created.body.data.outcome).toBe('handled')
    expect((await stored(tutor.user.id))[0]).toMatchObject({ processor_subscription_id: 'sub_from_hook', status: 'trialing' })
    await hook({ id: eventId(), type: 'invoice.payment_succeeded', data: { object: { object: 'invoice', amount_paid: 0, subscription: 'sub_from_hook' } } })
    expect((await stored(tutor.user.id))[0]!.status).toBe('trialing')
  })

  it('answers a duplicate 200 and changes nothing; other types and unknown subscriptions are ignored', async () => {
    const tutor = await syncedTutor()
    const event = subEvent('customer.subscription.updated', tutor.processorId, 'active')
    await hook(event)
    await t.db.updateTable('subscriptions').set({ status: 'trialing' }).where('user_id', '=', tutor.user.id).execute()
    const again = await hook(event)
    expect(again.status).toBe(200)
    expect(again.body.data.outcome).toBe('duplicate')
    expect((await stored(tutor.user.id))[0]!.status).toBe('trialing')
    expect((await hook({ id: eventId(), type: 'customer.created', data: { object: { id: 'cus_x' } } })).body.data.reason).toBe('unknown_type')
    expect((await hook(subEvent('customer.subscription.updated', 'sub_unknown', 'active'))).body.data.reason).toBe('unknown_subscription')
  })

  it("refuses the payments secret, a tampered body and a stale signature with 400; nothing changes", async () => {
    const tutor = await syncedTutor()
    const event = subEvent('customer.subscription.deleted', tutor.processorId, 'canceled')
    const raw = JSON.stringify(event)
    const header = signStripePayload(raw, SECRET)
    const results = await Promise.all([
      hook(event, 'whsec_payments_other'),
      t.request('POST', '/api/subscriptions/webhooks', { raw: raw.replace('deleted', 'deletee'), headers: { 'content-type': 'application/json', 'stripe-signature': header } }),
      t.request('POST', '/api/subscriptions/webhooks', { raw, headers: { 'content-type': 'application/json', 'stripe-signature': signStripePayload(raw, SECRET, Math.floor(Date.now() / 1000) - 400) } }),
      t.request('POST', '/api/subscriptions/webhooks', { raw, headers: { 'content-type': 'application/json' } }),
    ])
    for (const res of results) {
      expect(res.status).toBe(400)
      expect((res.body as { code: string }).code).toBe('invalid_signature')
    }
    expect((await stored(tutor.user.id))[0]).toMatchObject({ status: 'trialing', deleted_at: null })
  })

  it('answers portal links for a subscriber (offline: local pages) and 404 without a subscription', async () => {
    const tutor = await t.register('tutor')
    const res = await t.request<{ data: { actions: Array<{ type: string; url: string }> } }>('GET', '/api/subscriptions/portal', { token: tutor.token })
    expect(res.status).toBe(200)
    expect(res.body.data.actions.map((a) => a.type)).toEqual(['update_payment_method', 'cancel'])
    for (const action of res.body.data.actions) expect(action.url).toMatch(/^http:\/\/api\.test\/billing\/offline-portal\?/)
    const page = await t.request('GET', new URL(res.body.data.actions[1]!.url).pathname + new URL(res.body.data.actions[1]!.url).search)
    expect(page.status).toBe(200)
    expect(page.text).toContain('cancel your subscription')
    expect((await t.request('GET', '/api/subscriptions/portal', { token: (await t.register('student')).token })).status).toBe(404)
    expect((await t.request('GET', '/api/subscriptions/portal')).status).toBe(401)
  })
})

describe('the whole app against the Stripe stand-in', () => {
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

  it('registers a tutor with a card: customer, card and trialing subscription made at the processor', async () => {
    expect(t.infra.processor.mode).toBe('live')
    const tutor = await t.register('tutor', { card: { payment_method: 'pm_card_visa' } })
    const user = await t.db.selectFrom('users').select('processor_customer_id').where('id', '=', tutor.user.id).executeTakeFirstOrThrow()
    expect(api.seen(/^POST \/v1\/customers$/)[0]!.form).toMatchObject({ email: tutor.email })
    expect(user.processor_customer_id).toMatch(/^cus_/)
    expect(api.seen(/^POST \/v1\/payment_methods\/pm_card_visa\/attach$/)[0]!.form.customer).toBe(user.processor_customer_id)
    const cards = await t.request<{ data: Array<{ brand: string; is_default: boolean }> }>('GET', '/api/cards', { token: tutor.token })
    expect(cards.body.data).toEqual([expect.objectContaining({ brand: 'visa', last4: '4242', is_default: true })])

    await t.infra.deliverOutbox(100)
    const created = api.seen(/^POST \/v1\/subscriptions$/)
    expect(created).toHaveLength(1)
    expect(created[0]!.form).toMatchObject({ customer: user.processor_customer_id, trial_period_days: expect.any(String) })
    expect(created[0]!.headers.authorization).toBe(`Bearer ${api.secretKey}`)
    const sub = await t.db.selectFrom('subscriptions').selectAll().where('user_id', '=', tutor.user.id).executeTakeFirstOrThrow()
    expect(sub).toMatchObject({ status: 'trialing', processor_subscription_id: expect.stringMatching(/^sub_/) })

    const portal = await t.request<{ data: { actions: Array<{ type: string; url: string }> } }>('GET', '/api/subscriptions/portal', { token: tutor.token })
    expect(portal.body.data.actions.map((a) => a.url)).toEqual([expect.stringContaining('flow=payment_method_update'), expect.stringContaining('flow=subscription_cancel')])
    expect(api.seen(/^POST \/v1\/billing_portal\/sessions$/).map((r) => r.form['flow_data[subscription_cancel][subscription]']).filter(Boolean)).toEqual([sub.processor_subscription_id])
  })
})
