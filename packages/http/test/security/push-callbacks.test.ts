import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabaseKinds } from '@tutoring/adapters/testing'
import { createTestContext, type TestContext } from '../support/harness'
import { recordFinding, Tally } from '../support/findings'

type Answer = { data: { received: boolean; recorded: boolean; duplicate: boolean; matched: number } }

const FINDING = {
  class: 'Tampering: unauthenticated push callbacks',
  tried: "callbacks with random ids and unknown message ids, the provider's retry and a stranger's 'failed' for a delivered push, and callbacks older than 30 days",
  held: 'every callback answered 200 as documented, but only a delivery still pending takes a receipt: no row is kept for an unknown id, a settled receipt is never overwritten, and callbacks are purged after 30 days',
}

/**
 * SPEC: the push callback takes no auth, so anyone may call it. Issue 19: it kept a row per
 * random id forever and let anyone overwrite any delivery's receipt. CONTRACT §15: callbacks
 * change only deliveries still pending, and are purged after 30 days.
 */
describe.each(testDatabaseKinds())('push callbacks, on %s', (kind) => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestContext(kind)
  })
  afterAll(() => t.close())

  const callback = (tally: Tally, body: Record<string, unknown>) => t.request<Answer>('POST', '/api/v1/remote-push-notification', { body }).then((res) => tally.send(res, []))
  const pushEvents = async () => (await t.db.selectFrom('webhook_events').select('event_id').where('source', '=', 'push').execute()).map((r) => r.event_id)
  const receipts = (messageId: string) => t.db.selectFrom('push_deliveries').select(['receipt_status', 'receipt_at']).where('provider_message_id', '=', messageId).execute()

  /** A push to a new student's phone, delivered (to DATA_DIR/push): its provider message id. */
  async function deliveredPush(): Promise<string> {
    const student = await t.register('student')
    expect((await t.request('POST', '/api/v1/user-devices', { token: student.token, body: { platform: 'android', push_token: `fcm-${randomUUID()}` } })).status).toBe(201)
    await t.infra.outbox.enqueue({ kind: 'push', userId: student.user.id, title: 'Hello', body: 'A push', data: {} })
    await t.infra.deliverOutbox(100)
    const row = await t.db.selectFrom('push_deliveries').select('provider_message_id').where('user_id', '=', student.user.id).executeTakeFirstOrThrow()
    return row.provider_message_id!
  }

  it('keeps nothing for a callback about no delivery of ours, whatever its id', async ({ task }) => {
    const finding = recordFinding(task, FINDING)
    const tally = new Tally()
    const before = await pushEvents()
    for (let i = 0; i < 20; i++) {
      const res = await callback(tally, { id: randomUUID(), message_id: `projects/x/messages/${randomUUID()}`, type: 'delivered' })
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual({ received: true, recorded: false, duplicate: false, matched: 0 })
      expect((await callback(tally, { id: randomUUID(), status: 'ok' })).body.data.recorded).toBe(false)
    }
    expect(await pushEvents()).toEqual(before)
    finding.figures = { requests: tally.requests }
  })

  it('takes the first receipt of a pending delivery once, and no receipt after it', async ({ task }) => {
    recordFinding(task, FINDING)
    const tally = new Tally()
    const messageId = await deliveredPush()
    const id = `receipt-${randomUUID()}`
    expect((await callback(tally, { id, message_id: messageId, type: 'delivered' })).body.data).toEqual({ received: true, recorded: true, duplicate: false, matched: 1 })
    const settled = await receipts(messageId)
    expect(settled).toEqual([{ receipt_status: 'delivered', receipt_at: expect.any(Date) }])
    // The provider's retry is a duplicate; anyone else's later 'failed' changes nothing and keeps nothing.
    expect((await callback(tally, { id, message_id: messageId, type: 'delivered' })).body.data).toMatchObject({ duplicate: true, matched: 0 })
    const forged = `forged-${randomUUID()}`
    expect((await callback(tally, { id: forged, message_id: messageId, type: 'failed' })).body.data).toEqual({ received: true, recorded: false, duplicate: false, matched: 0 })
    expect((await callback(tally, { message_id: messageId, type: 'failed' })).body.data.matched).toBe(0)
    expect(await receipts(messageId)).toEqual(settled)
    expect(await pushEvents()).toContain(id)
    expect(await pushEvents()).not.toContain(forged)
  })

  it('purges push callbacks after 30 days, and nothing else', async ({ task }) => {
    recordFinding(task, FINDING)
    const tally = new Tally()
    const [old, recent] = [`old-${randomUUID()}`, `recent-${randomUUID()}`]
    for (const id of [old, recent]) expect((await callback(tally, { id, message_id: await deliveredPush(), type: 'delivered' })).body.data.recorded).toBe(true)
    const day = 86_400_000
    await t.db.updateTable('webhook_events').set({ received_at: new Date(Date.now() - 31 * day) }).where('source', '=', 'push').where('event_id', '=', old).execute()
    await t.db.updateTable('webhook_events').set({ received_at: new Date(Date.now() - 29 * day) }).where('source', '=', 'push').where('event_id', '=', recent).execute()
    const stripe = `evt_${randomUUID()}`
    await t.db.insertInto('webhook_events').values({ source: 'stripe', event_id: stripe, type: 'charge.succeeded', received_at: new Date(Date.now() - 400 * day) }).execute()
    expect(await t.infra.purgePushCallbacks()).toBeGreaterThanOrEqual(1)
    const left = await pushEvents()
    expect(left).not.toContain(old)
    expect(left).toContain(recent)
    expect(await t.db.selectFrom('webhook_events').select('event_id').where('event_id', '=', stripe).execute()).toHaveLength(1)
  })
})
