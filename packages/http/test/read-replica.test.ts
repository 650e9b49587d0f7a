import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServices, createInfrastructure, loadConfig, prepareDatabase, type Infrastructure } from '@tutoring/adapters'
import { addSearchableTutor, catalogOf, replicaClusterAvailable, startReplicaCluster, type ReplicaCluster } from '@tutoring/adapters/testing'
import { createApp } from '../src/app'
import { APP_KEY, fakeIncoming } from './support/harness'

type Page = { meta: { total: number } }

/**
 * CONTRACT §16 `DATABASE_READ_URL`, against a real streaming replica this test starts
 * (`pg_basebackup -R`, `pg_ctl`): a tutor written on the primary while the replica's replay
 * is paused is missing from search only where the replica answers.
 */
const serverTests = Boolean(process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL) && (await replicaClusterAvailable())

describe.skipIf(!serverTests)('reads from a streaming replica', () => {
  let cluster: ReplicaCluster
  const opened: Array<{ infra: Infrastructure; dataDir: string }> = []

  async function server(env: Record<string, string>) {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'tutoring-replica-app-'))
    const config = loadConfig({
      DATA_DIR: dataDir,
      APP_KEY,
      APP_URL: 'http://api.test',
      LOG_LEVEL: 'silent',
      BACKGROUND_JOBS: 'off',
      DATABASE_URL: cluster.primaryUrl,
      DATABASE_READ_URL: cluster.replicaUrl,
      ...env,
    })
    const infra = await createInfrastructure(config)
    opened.push({ infra, dataDir })
    const app = createApp(buildServices(infra))
    const request = async <T,>(method: string, url: string, from: string, body?: unknown) => {
      const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' }
      const res = await app.request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }, { incoming: fakeIncoming(from, headers) })
      return { status: res.status, body: (await res.json()) as T }
    }
    const found = async (from: string, query = '') => {
      const res = await request<Page>('GET', `/api/v1/search${query}`, from)
      expect(res.status).toBe(200)
      return res.body.meta.total
    }
    return { infra, request, found }
  }

  const until = async (check: () => boolean | Promise<boolean>, what: string, ms = 10_000) => {
    const deadline = Date.now() + ms
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
      await new Promise((r) => setTimeout(r, 50))
    }
  }

  beforeAll(async () => {
    cluster = await startReplicaCluster()
  }, 60_000)

  afterAll(async () => {
    for (const { infra, dataDir } of opened) {
      await infra.close()
      await rm(dataDir, { recursive: true, force: true })
    }
    await cluster?.close()
  })

  it('answers searches from the replica, a writer from the primary for READ_AFTER_WRITE_MS, and everyone from the primary while it lags or is down', async () => {
    const lenient = await server({ READ_REPLICA_MAX_LAG_MS: '600000', READ_AFTER_WRITE_MS: '1500' })
    const strict = await server({ READ_REPLICA_MAX_LAG_MS: '300', READ_AFTER_WRITE_MS: '1500' })
    await prepareDatabase(lenient.infra.database)
    const catalog = await catalogOf(lenient.infra.database)
    await until(() => lenient.infra.readRouting!.monitor.usable() && strict.infra.readRouting!.monitor.usable(), 'the replica to catch up')
    // Usable is within the lag limit, not replayed to the end: the lenient server's first search
    // could reach a replica still without the migrated schema (a 500 seen in CI).
    await cluster.caughtUp()
    expect(await lenient.found('198.51.100.1')).toBe(0)

    // The replica stops replaying; a tutor is written on the primary.
    await cluster.pauseReplay()
    await addSearchableTutor(lenient.infra.database, catalog)

    // A stranger reads the replica: not there yet.
    expect(await lenient.found('198.51.100.1')).toBe(0)
    // Someone who just wrote (a registration from their address) reads the primary, for the window only.
    const registered = await lenient.request('POST', '/api/auth/register', '198.51.100.2', {
      email: `writer.${Date.now()}@example.com`, password: 'correct horse battery', firstname: 'Wren', lastname: 'Writer', role: 'student', country: 'GB',
    })
    expect(registered.status).toBe(201)
    expect(await lenient.found('198.51.100.2')).toBe(1)
    await new Promise((r) => setTimeout(r, 1_700))
    expect(await lenient.found('198.51.100.2')).toBe(0)

    // Beyond READ_REPLICA_MAX_LAG_MS every read goes to the primary.
    await until(() => (strict.infra.readRouting!.monitor.lagMs() ?? 0) > 300, 'the lag to pass 300 ms')
    expect(strict.infra.readRouting!.monitor.usable()).toBe(false)
    expect(await strict.found('198.51.100.1')).toBe(1)

    // The online path's kept count (search/sql/online-count.sql) as the replica holds it: without
    // the tutor while replay is paused, then with them, as exact as the matches.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
    const subject = catalog.subjects.find((s) => s.levelIds.length > 0)!
    const online = `?subject_id=${subject.id}&date=${tomorrow}&filters[lesson_type]=online`
    expect(await lenient.found('198.51.100.1', online)).toBe(0)
    expect(await strict.found('198.51.100.1', online)).toBe(1)

    // Replay resumes: the replica catches up and answers again, with the tutor.
    await cluster.resumeReplay()
    await until(() => strict.infra.readRouting!.monitor.usable(), 'the replica to catch up again')
    expect(await lenient.found('198.51.100.1')).toBe(1)
    expect(await lenient.found('198.51.100.1', online)).toBe(1)
  }, 60_000)

  it('keeps answering from the primary through the replica going down and coming back', async () => {
    const app = await server({ READ_REPLICA_MAX_LAG_MS: '600000' })
    await until(() => app.infra.readRouting!.monitor.usable(), 'the replica')
    const before = await app.found('198.51.100.3')

    await cluster.stopReplica()
    const statuses: number[] = []
    for (let i = 0; i < 20; i++) {
      const res = await app.request<Page>('GET', '/api/v1/search', '198.51.100.3')
      statuses.push(res.status)
      expect(res.body.meta.total).toBe(before)
    }
    expect(new Set(statuses)).toEqual(new Set([200]))
    expect(app.infra.readRouting!.monitor.usable()).toBe(false)
    expect((await app.request('GET', '/readyz', '127.0.0.1')).body).toEqual({ data: { status: 'degraded', checks: { database: 'up', replica: 'down' } } })

    await cluster.startReplica()
    await until(() => app.infra.readRouting!.monitor.usable(), 'the replica to come back', 20_000)
    expect(await app.found('198.51.100.3')).toBe(before)
    expect((await app.request('GET', '/readyz', '127.0.0.1')).body).toEqual({ data: { status: 'ok', checks: { database: 'up', replica: 'up' } } })
  }, 60_000)
})
