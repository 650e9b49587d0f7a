import { mkdtemp, rm } from 'node:fs/promises'
import type { ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serverDatabaseUrl, testDatabaseKinds } from '@tutoring/adapters/testing'
import { deliverWebhooks, webhookDispatcher } from '@tutoring/domain/integrations'
import { webhookPayloads } from '../../src/webhook-payloads'
import { startServerProcess, stopProcess, type Launched } from '../support/child-server'
import { recordFinding } from '../support/findings'
import { APP_KEY, createTestContext, type TestContext } from '../support/harness'
import { webhookReceiver } from '../support/webhook-receiver'

type One<T> = { data: T }
type Session = { token: string; user: { id: number } }
const serverUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL

const until = async (what: string, done: () => Promise<boolean> | boolean, ms = 30_000) => {
  for (let waited = 0; waited < ms; waited += 100) {
    if (await done()) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`timed out waiting for ${what}`)
}

const endpointFor = async (t: TestContext, owner: Session, url: string) => {
  const res = await t.request<One<{ id: number }>>('POST', '/api/webhook-endpoints', { token: owner.token, body: { url, events: ['booking.created'] } })
  expect(res.status, res.text).toBe(201)
  return res.body.data.id
}
const queueTest = async (t: TestContext, owner: Session, endpointId: number) => {
  const res = await t.request<One<{ event_id: string }>>('POST', `/api/webhook-endpoints/${endpointId}/test`, { token: owner.token })
  expect(res.status, res.text).toBe(202)
  return res.body.data.event_id
}

describe.each(testDatabaseKinds())('hostile webhook receivers on %s', (kind) => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestContext(kind, { WEBHOOKS_ALLOW_INSECURE: 'true' })
  })
  afterAll(() => t.close())

  it('never stall the others: no answer, a 10 MB answer, a redirect to a private address', async ({ task }) => {
    recordFinding(task, {
      class: 'Hostile webhook receivers',
      tried: 'one round of deliveries to a receiver that never answers, one answering 10 MB, one redirecting (307) to a loopback address, and a well-behaved one',
      held: 'the well-behaved receiver served at once; the silent one cut at 10 s; the 10 MB answer never read; the redirect refused by the address guard, its target never reached',
    })
    const silent = await webhookReceiver(() => undefined)
    const huge = await webhookReceiver((res: ServerResponse) => {
      res.writeHead(200)
      res.on('error', () => undefined)
      res.end(Buffer.alloc(10 * 1024 * 1024, 120))
    })
    const target = await webhookReceiver()
    const redirecting = await webhookReceiver((res) => res.writeHead(307, { location: `${target.url}/private` }).end())
    const good = await webhookReceiver()
    try {
      const owner = await t.register('student')
      const ids: Record<string, number> = {}
      for (const [name, receiver] of Object.entries({ silent, huge, redirecting, good })) {
        ids[name] = await endpointFor(t, owner, receiver.url)
        await queueTest(t, owner, ids[name])
      }
      const started = Date.now()
      const round = await deliverWebhooks({ ...t.services.integrations, payloads: webhookPayloads(t.services) })
      const took = Date.now() - started
      expect(good.received).toHaveLength(1)
      expect(good.received[0]!.at - started).toBeLessThan(3_000)
      expect(took).toBeLessThan(14_000)
      expect(round).toMatchObject({ succeeded: 2, failed: 2 })
      expect(target.received).toEqual([])
      const status = async (name: string) =>
        (await t.request<One<Array<{ status: string; last_status_code: number | null }>>>('GET', `/api/webhook-endpoints/${ids[name]}/deliveries`, { token: owner.token })).body.data[0]
      expect(await status('good')).toMatchObject({ status: 'succeeded', last_status_code: 200 })
      expect(await status('huge')).toMatchObject({ status: 'succeeded', last_status_code: 200 })
      expect(await status('silent')).toMatchObject({ status: 'failing', last_status_code: null })
      expect(await status('redirecting')).toMatchObject({ status: 'failing', last_status_code: null })
    } finally {
      for (const receiver of [silent, huge, target, redirecting, good]) await receiver.close()
    }
  }, 60_000)
})

describe.each(testDatabaseKinds())('the webhook worker on %s', (kind) => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestContext(kind, { WEBHOOKS_ALLOW_INSECURE: 'true' })
  })
  afterAll(() => t.close())

  it('sends an event that comes while a receiver keeps it waiting, without waiting for that one', async ({ task }) => {
    recordFinding(task, {
      class: 'Hostile webhook receivers',
      tried: "an event queued while the worker's send to a receiver that never answers is under way",
      held: 'the next tick sends it at once; the silent send ends at its deadline',
    })
    const silent = await webhookReceiver(() => undefined)
    const good = await webhookReceiver()
    try {
      const owner = await t.register('student')
      const worker = webhookDispatcher({ ...t.services.integrations, payloads: webhookPayloads(t.services) })
      await queueTest(t, owner, await endpointFor(t, owner, silent.url))
      await worker.tick()
      await until('the silent receiver to be called', () => silent.received.length === 1, 5_000)
      const queued = Date.now()
      await queueTest(t, owner, await endpointFor(t, owner, good.url))
      await worker.tick()
      await until('the good receiver to be called', () => good.received.length === 1, 5_000)
      expect(good.received[0]!.at - queued).toBeLessThan(3_000)
      expect(await worker.drain()).toMatchObject({ succeeded: 1, failed: 1 })
    } finally {
      await silent.close()
      await good.close()
    }
  }, 60_000)
})

/** Spawned servers on one PostgreSQL: a killed sender, and two senders at once. */
describe.skipIf(!serverUrl)('webhook senders as processes, on postgres', () => {
  let t: TestContext
  let dataDir: string
  let env: Record<string, string>
  const servers: Array<Launched & { url: string }> = []

  beforeAll(async () => {
    t = await createTestContext('postgres', { WEBHOOKS_ALLOW_INSECURE: 'true' })
    dataDir = await mkdtemp(path.join(tmpdir(), 'tutoring-webhooks-'))
    env = {
      DATABASE_URL: await serverDatabaseUrl(t.db),
      DATA_DIR: dataDir,
      APP_KEY,
      // startServerProcess reads the URL from the start-up line.
      LOG_LEVEL: 'info',
      BACKGROUND_JOBS: 'on',
      BACKGROUND_JOBS_INTERVAL_MS: '150',
      WEBHOOKS_ALLOW_INSECURE: 'true',
      THROTTLE_PER_MINUTE: '100000',
      REDIS_URL: '',
      STRIPE_SECRET_KEY: '',
    }
  }, 60_000)
  afterAll(async () => {
    for (const server of servers) await stopProcess(server)
    await t?.close()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  const succeeded = async (eventIds: string[]) => {
    const rows = await t.db.selectFrom('webhook_deliveries').select(['event_id', 'status']).where('event_id', 'in', eventIds).execute()
    return rows.length === eventIds.length && rows.every((r) => r.status === 'succeeded')
  }

  it('delivers at least once across a kill -9 of the sender, with the same webhook-id', async ({ task }) => {
    recordFinding(task, {
      class: 'Kill -9 and restart',
      tried: 'kill -9 of the server while its webhook worker waited on the receiver for five deliveries, then a restart',
      held: 'every event delivered after the restart with the webhook-id it was first sent with; every delivery succeeded in the log',
    })
    // The first process's requests are held unanswered, so it dies mid-send.
    let holding = true
    const receiver = await webhookReceiver((res) => {
      if (!holding) res.end('ok')
    })
    try {
      const owner = await t.register('student')
      const endpoint = await endpointFor(t, owner, receiver.url)
      const events = [] as string[]
      for (let i = 0; i < 5; i++) events.push(await queueTest(t, owner, endpoint))
      const first = await startServerProcess({ ...env, OUTBOX_LEASE_SECONDS: '2' })
      servers.push(first)
      await until('the first sends', () => receiver.received.length >= events.length)
      first.child.kill('SIGKILL')
      await first.finished
      holding = false
      const before = receiver.received.length
      servers.push(await startServerProcess({ ...env, OUTBOX_LEASE_SECONDS: '2' }))
      await until('every delivery to succeed', () => succeeded(events))
      const after = receiver.received.slice(before).map((r) => r.headers['webhook-id'])
      expect(new Set(after)).toEqual(new Set(events))
    } finally {
      while (servers.length > 0) await stopProcess(servers.pop()!)
      await receiver.close()
    }
  }, 120_000)

  it('sends each event once with two instances running the worker', async ({ task }) => {
    recordFinding(task, {
      class: 'Two instances',
      tried: 'twenty webhook events with two server processes running the webhook worker every 150 ms',
      held: 'each event reached the receiver once: claims FOR UPDATE SKIP LOCKED, one per delivery',
    })
    const receiver = await webhookReceiver()
    try {
      servers.push(...(await Promise.all([startServerProcess(env), startServerProcess(env)])))
      const owner = await t.register('student')
      const endpoint = await endpointFor(t, owner, receiver.url)
      const events = await Promise.all(Array.from({ length: 20 }, () => queueTest(t, owner, endpoint)))
      await until('every delivery to succeed', () => succeeded(events))
      const ids = receiver.received.map((r) => r.headers['webhook-id'])
      expect(ids.sort()).toEqual([...events].sort())
    } finally {
      while (servers.length > 0) await stopProcess(servers.pop()!)
      await receiver.close()
    }
  }, 120_000)
})
