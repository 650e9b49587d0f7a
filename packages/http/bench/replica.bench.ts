/**
 * `pnpm bench:replica` (http): two server processes against a primary and its streaming
 * replica (CONTRACT §16 `DATABASE_READ_URL`), started on this machine by the replica-cluster
 * helper (`initdb`, `pg_basebackup -R`, `pg_ctl`; needs the PostgreSQL server programs).
 * BENCH_TUTORS demo tutors (default 10,000) are loaded into the primary; once the replica has
 * replayed them, the same rotating search and availability requests run against two server
 * processes reading from the primary only, then against two reading from the replica. Each
 * route at 1 client (one process) and at 10 (5 on each), with the transactions each database
 * served in that run, so the routing shows beside the times.
 *
 * The two databases share the machine's cores with the servers and the load generator, and
 * the helper's clusters run with fsync off and 32 MB of shared buffers: the figures compare
 * the two modes with each other, not with the other benches.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { demoCatalog, loadDemoTutors, openPostgres, prepareDatabase } from '@tutoring/adapters'
import { analyzeDatabase, replicaClusterAvailable, startReplicaCluster } from '@tutoring/adapters/testing'
import { addDays, londonToday } from '@tutoring/domain/shared'
import { demoTutors } from '@tutoring/testkit'
import { startServerProcess, stopProcess } from '../test/support/child-server'
import { load, pad, padLeft, WARMUP_SECONDS, DURATION_SECONDS, type Measured } from './support'

const TUTORS = Number(process.env.BENCH_TUTORS ?? 10_000)
const APP_KEY = `base64:${Buffer.alloc(32, 7).toString('base64')}`
const POSTCODES = ['SW1A 1AA', 'EC1A 1BB', 'W1A 1AA', 'SE1 9SG', 'N1 9AL', 'E14 5AB'] as const

type Result = { mode: string; route: string; clients: number; m: Measured; primaryTx: number; replicaTx: number }

async function main() {
  if (!(await replicaClusterAvailable())) throw new Error('initdb, pg_ctl and pg_basebackup are needed')
  const cluster = await startReplicaCluster()
  const dataDirs: string[] = []
  try {
    const handle = await openPostgres(cluster.primaryUrl, { maxConnections: 10 })
    const today = londonToday(new Date())
    let teachIds: number[]
    let subjectIds: number[]
    try {
      await prepareDatabase(handle)
      const catalog = await demoCatalog(handle.db)
      const started = performance.now()
      await loadDemoTutors(handle.db, demoTutors({ seed: 42, tutors: TUTORS, today, catalog, searchableOnly: true }), { tag: 'bench', passwordHash: 'not-a-login' })
      console.log(`${TUTORS} demo tutors loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`)
      await analyzeDatabase(handle.db)
      teachIds = (await handle.db.selectFrom('teaches').select('id').where('enabled', '=', true).where('deleted_at', 'is', null).orderBy('id').limit(400).execute()).map((t) => t.id)
      subjectIds = (await handle.db.selectFrom('subjects').select('id').where('title', 'in', ['Mathematics', 'English', 'Chemistry']).execute()).map((s) => s.id)
    } finally {
      await handle.close()
    }
    await cluster.caughtUp()

    const routes = {
      'search online by distance': Array.from({ length: 12 }, (_, i) => {
        const query = new URLSearchParams({ subject_id: String(subjectIds[i % subjectIds.length]), date: addDays(today, 1 + (i % 4)), post_code: POSTCODES[i % POSTCODES.length]!, 'filters[lesson_type]': 'online' })
        return `/api/v1/search?${query.toString()}`
      }),
      'availability online': teachIds.map((id, i) => `/api/availabilites?teach_id=${id}&date=${addDays(today, 1 + (i % 4))}&duration=60&lesson_type=3`),
    }
    const modes: Array<{ mode: string; env: Record<string, string> }> = [
      { mode: 'primary only', env: {} },
      { mode: 'primary + replica', env: { DATABASE_READ_URL: cluster.replicaUrl } },
    ]
    const results: Result[] = []
    for (const { mode, env } of modes) {
      const servers = []
      for (let i = 0; i < 2; i++) {
        const dataDir = await mkdtemp(path.join(tmpdir(), 'tutoring-replica-bench-'))
        dataDirs.push(dataDir)
        servers.push(
          await startServerProcess({
            ...env,
            DATABASE_URL: cluster.primaryUrl,
            DATA_DIR: dataDir,
            APP_KEY,
            // info: the server says it listens at that level.
            LOG_LEVEL: 'info',
            BACKGROUND_JOBS: 'off',
            THROTTLE_PER_MINUTE: '1000000000',
            REDIS_URL: '',
            STRIPE_SECRET_KEY: '',
          }),
        )
      }
      try {
        for (const [route, paths] of Object.entries(routes)) {
          const requests = paths.map((p) => ({ path: p }))
          for (const clients of [1, 10]) {
            // One client asks one process; ten are five on each.
            const targets = clients === 1 ? [servers[0]!.url] : servers.map((s) => s.url)
            const each = clients / targets.length
            await Promise.all(targets.map((url) => load({ url, requests }, each, WARMUP_SECONDS)))
            const before = await cluster.transactions()
            const measured = await Promise.all(targets.map((url) => load({ url, requests }, each, DURATION_SECONDS)))
            const after = await cluster.transactions()
            if (measured.some((m) => m.non2xx > 0 || m.errors > 0)) throw new Error(`${mode} ${route}: non-2xx answers or errors`)
            const m: Measured = {
              requestsPerSecond: measured.reduce((n, x) => n + x.requestsPerSecond, 0),
              p50: Math.max(...measured.map((x) => x.p50)),
              p95: Math.max(...measured.map((x) => x.p95)),
              p99: Math.max(...measured.map((x) => x.p99)),
              total: measured.reduce((n, x) => n + x.total, 0),
              non2xx: 0,
              errors: 0,
            }
            results.push({ mode, route, clients, m, primaryTx: after.primary - before.primary, replicaTx: after.replica - before.replica })
          }
        }
      } finally {
        for (const server of servers) await stopProcess(server)
      }
    }
    console.log(`\n${TUTORS} demo tutors, two server processes, ${DURATION_SECONDS} s per row after ${WARMUP_SECONDS} s of warm-up`)
    console.log(`${pad('mode', 20)}${pad('route', 28)}${padLeft('clients', 8)}${padLeft('p50 ms', 8)}${padLeft('p95 ms', 8)}${padLeft('req/s', 8)}${padLeft('primary tx', 12)}${padLeft('replica tx', 12)}`)
    for (const r of results) {
      console.log(
        `${pad(r.mode, 20)}${pad(r.route, 28)}${padLeft(r.clients, 8)}${padLeft(r.m.p50, 8)}${padLeft(r.m.p95, 8)}${padLeft(Math.round(r.m.requestsPerSecond), 8)}${padLeft(r.primaryTx, 12)}${padLeft(r.replicaTx, 12)}`,
      )
    }
  } finally {
    await cluster.close()
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true })
  }
}

await main()
