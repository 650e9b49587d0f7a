/**
 * `pnpm bench` (http): the real server (startServer, port 0) under autocannon, beside two
 * ceilings served by the same process in the same run: a bare Hono JSON route and a route
 * doing one primary-key select through Kysely on the same database handle. Runs on
 * PGlite, then on PostgreSQL when DATABASE_URL is set.
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

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const WARMUP_SECONDS = 2

type Measured = { requestsPerSecond: number; p50: number; p99: number; total: number; non2xx: number; errors: number }
type Row = Measured & { database: string; route: string; cpuMicrosPerRequest: number }

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

async function openDatabase(kind: 'pglite' | 'postgres', dataDir: string): Promise<DatabaseHandle> {
  if (kind === 'postgres') return createTestDatabase('postgres')
  const handle = await openPGlite(path.join(dataDir, 'pglite'))
  await prepareDatabase(handle)
  return handle
}

async function benchOne(kind: 'pglite' | 'postgres'): Promise<Row[]> {
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
    const rows: Row[] = []
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

const pad = (s: string | number, n: number) => String(s).padEnd(n)
const padLeft = (s: string | number, n: number) => String(s).padStart(n)

function print(rows: Row[]) {
  console.log(`\n${pad('database', 10)}${pad('route', 32)}${padLeft('req/s', 9)}${padLeft('p50 ms', 8)}${padLeft('p99 ms', 8)}${padLeft('cpu µs/req', 12)}`)
  for (const r of rows) {
    console.log(
      `${pad(r.database, 10)}${pad(r.route, 32)}${padLeft(Math.round(r.requestsPerSecond), 9)}${padLeft(r.p50, 8)}${padLeft(r.p99, 8)}${padLeft(r.cpuMicrosPerRequest.toFixed(0), 12)}`,
    )
  }
  const row = (route: string) => rows.find((r) => r.route.startsWith(route))!
  const ratios = (name: string, measured: Row, ceiling: Row) => {
    const byRate = measured.requestsPerSecond / ceiling.requestsPerSecond
    const byCpu = ceiling.cpuMicrosPerRequest / measured.cpuMicrosPerRequest
    const verdict = byRate >= 0.5 ? 'target >= 50 % met' : 'target >= 50 % MISSED'
    console.log(`${pad(name, 26)}${padLeft((byRate * 100).toFixed(0), 4)} % of the ceiling's req/s (${verdict}); ${(byCpu * 100).toFixed(0)} % by CPU per request`)
  }
  ratios('subjects / bare:', row('GET /api/subjects'), row('bare Hono'))
  ratios('users / one-select:', row('GET /api/v1/users'), row('one PK select'))
}

async function main() {
  console.log(`autocannon: ${CONNECTIONS} connections, ${DURATION_SECONDS} s per route after ${WARMUP_SECONDS} s of warm-up; Node ${process.version}`)
  print(await benchOne('pglite'))
  if (process.env.DATABASE_URL) print(await benchOne('postgres'))
  else console.log('\nPostgreSQL: skipped (set DATABASE_URL to a server to include it)')
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
