import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addSearchableTutor, catalogOf, signStripePayload, testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from './support/harness'

const SECRET = 'whsec_rule_eight'
type Status = { data: { eligible: boolean; reasons: string[] } }
let counter = 0

/**
 * Search rule 8 (CONTRACT §14, issue 11): a tutor whose subscription is neither trialing nor
 * active is not searchable and can not be booked, and `tutors/status` says why; a subscription
 * valid again brings them back. Driven by the subscription webhook, as the processor would.
 */
describe.each(testDatabaseKinds())('search needs a valid subscription, on %s', (kind) => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestContext(kind, { STRIPE_SUBSCRIPTION_WEBHOOK_SECRET: SECRET })
  })
  afterAll(() => t.close())

  const hook = async (type: string, id: string, status: string) => {
    const raw = JSON.stringify({
      id: `evt_rule8_${Date.now()}_${++counter}`,
      type,
      data: { object: { id, object: 'subscription', status, customer: null, trial_end: null, items: { data: [{ current_period_end: 1_900_000_000 }] } } },
    })
    const res = await t.request<{ data: { outcome: string } }>('POST', '/api/subscriptions/webhooks', {
      raw,
      headers: { 'content-type': 'application/json', 'stripe-signature': signStripePayload(raw, SECRET) },
    })
    expect(res.status).toBe(200)
    expect(res.body.data.outcome).toBe('handled')
  }

  /** A searchable tutor whose trial the processor knows as `sub_rule8_<id>`, logged in. */
  async function searchableTutor() {
    const id = await addSearchableTutor(t, await catalogOf(t), { lastname: 'Eight' })
    const processorId = `sub_rule8_${id}`
    await t.db.updateTable('subscriptions').set({ processor_subscription_id: processorId }).where('user_id', '=', id).execute()
    const user = await t.db
      .updateTable('users')
      .set({ password_hash: await t.infra.hasher.hash('rule eight password') })
      .where('id', '=', id)
      .returning('email')
      .executeTakeFirstOrThrow()
    const login = await t.request<{ data: { token: string } }>('POST', '/api/auth/login', { body: { email: user.email, password: 'rule eight password' } })
    expect(login.status).toBe(200)
    const teach = await t.db.selectFrom('teaches').select('id').where('tutor_id', '=', id).executeTakeFirstOrThrow()
    return { id, processorId, token: login.body.data.token, teachId: Number(teach.id) }
  }

  const found = async (tutorId: number) => {
    const res = await t.request<{ data: Array<{ id: number }> }>('POST', '/api/v1/search', { body: { per_page: 100 } })
    expect(res.status).toBe(200)
    return res.body.data.some((hit) => hit.id === tutorId)
  }
  const status = async (token: string) => (await t.request<Status>('GET', '/api/v1/tutors/status', { token })).body.data
  const availability = async (teachId: number) => (await t.request('GET', `/api/availabilites?teach_id=${teachId}`)).status

  it('removes a tutor whose subscription the processor deleted, until a subscription is valid again', async () => {
    const tutor = await searchableTutor()
    expect(await found(tutor.id)).toBe(true)
    expect(await status(tutor.token)).toEqual({ eligible: true, reasons: [], verifications: expect.anything() })

    await hook('customer.subscription.deleted', tutor.processorId, 'canceled')
    expect(await found(tutor.id)).toBe(false)
    expect(await status(tutor.token)).toMatchObject({ eligible: false, reasons: ['subscription_inactive'] })
    expect(await availability(tutor.teachId)).toBe(404)

    // A new trial, as the tutor starts one after a cancellation.
    const restarted = await t.request<{ data: { status: string } }>('POST', '/api/subscriptions', { token: tutor.token, body: {} })
    expect(restarted.status).toBe(201)
    expect(restarted.body.data.status).toBe('trialing')
    expect(await found(tutor.id)).toBe(true)
    expect(await status(tutor.token)).toMatchObject({ eligible: true, reasons: [] })
    expect(await availability(tutor.teachId)).toBe(200)
  })

  it('drops a tutor while a payment is retried (past_due) and takes them back once it is active', async () => {
    const tutor = await searchableTutor()
    await hook('customer.subscription.updated', tutor.processorId, 'past_due')
    expect(await found(tutor.id)).toBe(false)
    expect((await status(tutor.token)).reasons).toEqual(['subscription_inactive'])
    await hook('customer.subscription.updated', tutor.processorId, 'active')
    expect(await found(tutor.id)).toBe(true)
    expect((await status(tutor.token)).reasons).toEqual([])
  })
})
