/**
 * `pnpm bench` (http): the real server (startServer, port 0) under autocannon, beside two
 * ceilings served by the same process in the same run: a bare Hono JSON route and a route
 * doing one primary-key select through Kysely on the same database handle. Runs on
 * PGlite, then on PostgreSQL when DATABASE_URL is set (BENCH_DATABASES picks one).
 */
import { fork } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { serve, type ServerType } from '@hono/node-server'
import { Hono } from 'hono'
import pino from 'pino'
import {
  createInfrastructure,
  loadConfig,
  openPGlite,
  prepareDatabase,
  type DatabaseHandle,
  type Infrastructure,
} from '@tutoring/adapters'
import { createTestDatabase } from '@tutoring/adapters/testing'
import { startServer } from '../src/server'
import { benchKinds, pad, padLeft, runWhenCommand, type DatabaseKind } from './support'

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const WARMUP_SECONDS = 2

type Measured = { requestsPerSecond: number; p50: number; p99: number; total: number; non2xx: number; errors: number }
export type PlatformRow = Measured & { database: string; route: string; cpuMicrosPerRequest: number }

function load(url: string, headers: Record<string, string> = {}, duration = DURATION_SECONDS): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const options = JSON.stringify({ url, headers, connections: CONNECTIONS, duration })
    const child = fork(fileURLToPath(new URL('./load.worker.mjs', import.meta.url)), [options], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    child.once('message', (m) => resolve(m as Measured))
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`load generator exited with ${code}`))))
  })
}

/** The ceilings: no platform middleware at all, on the same process and database handle. */
async function startCeilings(database: DatabaseHandle): Promise<{ url: string; stop(): Promise<void> }> {
  const app = new Hono()
  app.get('/bare', (c) => c.json({ data: { status: 'ok' } }))
  app.get('/one-select/:id', async (c) => {
    const row = await database.db.selectFrom('users').selectAll().where('id', '=', Number(c.req.param('id'))).executeTakeFirst()
    return row ? c.json({ data: { id: row.id, email: row.email, username: row.username, created_at: row.created_at.toISOString() } }) : c.notFound()
  })
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  }
}

/** Logs at the production level into nothing: the cost of logging stays in the figures. */
const discardingLogger = () =>
  pino({ level: 'info', base: undefined }, new Writable({ write: (_chunk, _encoding, done) => done() }))

async function openDatabase(kind: DatabaseKind, dataDir: string): Promise<DatabaseHandle> {
  if (kind === 'postgres') return createTestDatabase('postgres')
  const handle = await openPGlite(path.join(dataDir, 'pglite'))
  await prepareDatabase(handle)
  return handle
}

/** The four routes on a fresh database of `kind`: two ceilings and the two routes the aims compare with them. */
export async function platformRows(kind: DatabaseKind): Promise<PlatformRow[]> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'tutoring-bench-'))
  const database = await openDatabase(kind, dataDir)
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    BACKGROUND_JOBS: 'off',
    THROTTLE_PER_MINUTE: '1000000000',
    AUTH_THROTTLE_PER_MINUTE: '1000000000',
  })
  const infra: Infrastructure = await createInfrastructure(config, { database, logger: discardingLogger() })
  const server = await startServer(infra, 0)
  const ceilings = await startCeilings(database)
  try {
    const registered = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', password: 'benchmark password', firstname: 'Bench', lastname: 'Mark', role: 'student', country: 'GB' }),
    })
    if (registered.status !== 201) throw new Error(`registration failed: ${registered.status} ${await registered.text()}`)
    const { data } = (await registered.json()) as { data: { token: string; user: { id: number } } }
    const auth = { authorization: `Bearer ${data.token}` }
    const targets: Array<{ route: string; url: string; headers?: Record<string, string> }> = [
      { route: 'bare Hono JSON (ceiling)', url: `${ceilings.url}/bare` },
      { route: 'GET /api/subjects', url: `${server.url}/api/subjects` },
      { route: 'one PK select (ceiling)', url: `${ceilings.url}/one-select/${data.user.id}` },
      { route: 'GET /api/v1/users/{id} (auth)', url: `${server.url}/api/v1/users/${data.user.id}`, headers: auth },
    ]
    const rows: PlatformRow[] = []
    for (const target of targets) {
      await load(target.url, target.headers, WARMUP_SECONDS)
      // CPU of this process (server, ceilings and the embedded database) per request: steadier
      // than req/s on a machine other work shares, since the load generator runs elsewhere.
      const cpuBefore = process.cpuUsage()
      const measured = await load(target.url, target.headers)
      const cpu = process.cpuUsage(cpuBefore)
      if (measured.non2xx > 0 || measured.errors > 0) throw new Error(`${target.route}: ${measured.non2xx} non-2xx answers, ${measured.errors} errors`)
      rows.push({ database: kind, route: target.route, ...measured, cpuMicrosPerRequest: (cpu.user + cpu.system) / measured.total })
    }
    return rows
  } finally {
    await ceilings.stop()
    await server.stop()
    await infra.close()
    await rm(dataDir, { recursive: true, force: true })
  }
}

/** The aims of issue 12, each a route against its ceiling of the same database and run: at least half its req/s. */
export const PLATFORM_AIMS = [
  { name: 'subjects / bare', route: 'GET /api/subjects', ceiling: 'bare Hono', share: 0.5 },
  { name: 'users / one-select', route: 'GET /api/v1/users', ceiling: 'one PK select', share: 0.5 },
] as const

/** A route's req/s and CPU per request as shares of its ceiling's, from rows of one database. */
export function platformShare(rows: readonly PlatformRow[], aim: (typeof PLATFORM_AIMS)[number]): { byRate: number; byCpu: number } {
  const row = (route: string) => rows.find((r) => r.route.startsWith(route))!
  const measured = row(aim.route)
  const ceiling = row(aim.ceiling)
  return { byRate: measured.requestsPerSecond / ceiling.requestsPerSecond, byCpu: ceiling.cpuMicrosPerRequest / measured.cpuMicrosPerRequest }
}

export function printPlatform(rows: readonly PlatformRow[]) {
  console.log(`\n${pad('database', 10)}${pad('route', 32)}${padLeft('req/s', 9)}${padLeft('p50 ms', 8)}${padLeft('p99 ms', 8)}${padLeft('cpu µs/req', 12)}`)
  for (const r of rows) {
    console.log(
      `${pad(r.database, 10)}${pad(r.route, 32)}${padLeft(Math.round(r.requestsPerSecond), 9)}${padLeft(r.p50, 8)}${padLeft(r.p99, 8)}${padLeft(r.cpuMicrosPerRequest.toFixed(0), 12)}`,
    )
  }
  for (const aim of PLATFORM_AIMS) {
    const { byRate, byCpu } = platformShare(rows, aim)
    const verdict = byRate >= aim.share ? `target >= ${aim.share * 100} % met` : `target >= ${aim.share * 100} % MISSED`
    console.log(`${pad(`${aim.name}:`, 26)}${padLeft((byRate * 100).toFixed(0), 4)} % of the ceiling's req/s (${verdict}); ${(byCpu * 100).toFixed(0)} % by CPU per request`)
  }
}

export const platformHeading = () =>
  `autocannon: ${CONNECTIONS} connections, ${DURATION_SECONDS} s per route after ${WARMUP_SECONDS} s of warm-up; Node ${process.version}`

runWhenCommand(import.meta.url, async () => {
  console.log(platformHeading())
  for (const kind of benchKinds()) printPlatform(await platformRows(kind))
  if (!process.env.DATABASE_URL) console.log('\nPostgreSQL: skipped (set DATABASE_URL to a server to include it)')
})
