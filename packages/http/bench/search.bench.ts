/**
 * `pnpm bench` (http, after http.bench.ts): tutor search against N demo tutors (1,000 and
 * 10,000; 100,000 too with BENCH_LARGE=1) on a fresh PGlite, then on a fresh database of the
 * PostgreSQL server when DATABASE_URL is set (created beside the test one and dropped
 * after). The search is subject + date + postcode + lesson type (students_home, so the
 * travel-distance rule and its bounding box run) sorted by distance. p50/p95 at 10
 * concurrent clients and req/s at 50, beside a one-primary-key-select ceiling served by the
 * same process on the same database handle.
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
  demoCatalog,
  loadConfig,
  loadDemoTutors,
  openPGlite,
  openPostgres,
  prepareDatabase,
  type DatabaseHandle,
} from '@tutoring/adapters'
import { analyzeDatabase, createEmptyServerDatabase } from '@tutoring/adapters/testing'
import { addDays, londonToday } from '@tutoring/domain'
import { generateMarketplace, placesGeocoder } from '@tutoring/testkit'
import { startServer } from '../src/server'

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const WARMUP_SECONDS = 2
const SIZES = [1_000, 10_000, ...(process.env.BENCH_LARGE === '1' ? [100_000] : [])]

type Measured = { requestsPerSecond: number; p50: number; p95: number; p99: number; total: number; non2xx: number; errors: number }
type Row = { database: string; tutors: number; loadSeconds: number; found: number; route: string; p50: number; p95: number; rps10: number; rps50: number }

function load(url: string, connections: number, duration: number): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const options = JSON.stringify({ url, connections, duration })
    const child = fork(fileURLToPath(new URL('./load.worker.mjs', import.meta.url)), [options], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    child.once('message', (m) => resolve(m as Measured))
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`load generator exited with ${code}`))))
  })
}

async function startCeiling(database: DatabaseHandle, userId: number): Promise<{ url: string; stop(): Promise<void> }> {
  const app = new Hono()
  app.get('/one-select', async (c) => {
    const row = await database.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst()
    return row ? c.json({ data: { id: row.id, email: row.email, username: row.username, created_at: row.created_at.toISOString() } }) : c.notFound()
  })
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return { url: `http://127.0.0.1:${port}/one-select`, stop: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))) }
}

const discardingLogger = () => pino({ level: 'info', base: undefined }, new Writable({ write: (_chunk, _encoding, done) => done() }))

async function freshDatabase(kind: 'pglite' | 'postgres'): Promise<{ handle: DatabaseHandle; drop(): Promise<void> }> {
  if (kind === 'pglite') {
    const handle = await openPGlite()
    await prepareDatabase(handle)
    return { handle, drop: async () => undefined }
  }
  const empty = await createEmptyServerDatabase()
  const handle = await openPostgres(empty.url, { maxConnections: 10 })
  await prepareDatabase(handle)
  return { handle, drop: () => empty.drop() }
}

async function measure(url: string): Promise<Pick<Row, 'p50' | 'p95' | 'rps10' | 'rps50'>> {
  await load(url, 10, WARMUP_SECONDS)
  const ten = await load(url, 10, DURATION_SECONDS)
  const fifty = await load(url, 50, DURATION_SECONDS)
  for (const m of [ten, fifty]) if (m.non2xx > 0 || m.errors > 0) throw new Error(`${url}: ${m.non2xx} non-2xx answers, ${m.errors} errors`)
  return { p50: ten.p50, p95: ten.p95, rps10: ten.requestsPerSecond, rps50: fifty.requestsPerSecond }
}

async function benchOne(kind: 'pglite' | 'postgres', tutors: number): Promise<Row[]> {
  const { handle, drop } = await freshDatabase(kind)
  const dataDir = await mkdtemp(path.join(tmpdir(), 'tutoring-search-bench-'))
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'info', BACKGROUND_JOBS: 'off', THROTTLE_PER_MINUTE: '1000000000' })
  const infra = await createInfrastructure(config, { database: handle, logger: discardingLogger(), geocoder: placesGeocoder() })
  try {
    const today = londonToday(new Date())
    const catalog = await demoCatalog(handle.db)
    const started = performance.now()
    const ids = await loadDemoTutors(handle.db, generateMarketplace({ seed: 42, tutors, today, catalog, searchableOnly: true }), { tag: 'bench', passwordHash: 'not-a-login' })
    const loadSeconds = (performance.now() - started) / 1000
    await analyzeDatabase(handle.db)
    const maths = await handle.db.selectFrom('subjects').select('id').where('title', '=', 'Mathematics').executeTakeFirstOrThrow()
    const server = await startServer(infra, 0)
    const ceiling = await startCeiling(handle, ids[0]!)
    try {
      const query = `subject_id=${maths.id}&date=${addDays(today, 2)}&post_code=SW1A%201AA&filters%5Blesson_type%5D=students_home&sort=distance`
      const searchUrl = `${server.url}/api/v1/search?${query}`
      const probe = await fetch(searchUrl)
      if (probe.status !== 200) throw new Error(`search answered ${probe.status}: ${await probe.text()}`)
      const found = ((await probe.json()) as { meta: { total: number } }).meta.total
      const base = { database: kind, tutors, loadSeconds, found }
      return [
        { ...base, route: 'GET /api/v1/search', ...(await measure(searchUrl)) },
        { ...base, route: 'one PK select (ceiling)', ...(await measure(ceiling.url)) },
      ]
    } finally {
      await ceiling.stop()
      await server.stop()
    }
  } finally {
    await infra.close()
    await drop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

const pad = (s: string | number, n: number) => String(s).padEnd(n)
const padLeft = (s: string | number, n: number) => String(s).padStart(n)

function print(rows: Row[]) {
  console.log(
    `\n${pad('database', 10)}${padLeft('tutors', 8)}${padLeft('load s', 8)}${padLeft('found', 7)}  ${pad('route', 26)}${padLeft('p50 ms', 8)}${padLeft('p95 ms', 8)}${padLeft('req/s@10', 10)}${padLeft('req/s@50', 10)}`,
  )
  for (const r of rows) {
    console.log(
      `${pad(r.database, 10)}${padLeft(r.tutors, 8)}${padLeft(r.loadSeconds.toFixed(1), 8)}${padLeft(r.found, 7)}  ${pad(r.route, 26)}${padLeft(r.p50, 8)}${padLeft(r.p95, 8)}${padLeft(Math.round(r.rps10), 10)}${padLeft(Math.round(r.rps50), 10)}`,
    )
  }
}

async function main() {
  console.log(`tutor search: ${SIZES.join(', ')} demo tutors; autocannon ${DURATION_SECONDS} s at 10 and at 50 connections after ${WARMUP_SECONDS} s of warm-up; Node ${process.version}`)
  const rows: Row[] = []
  const kinds: Array<'pglite' | 'postgres'> = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite']
  for (const kind of kinds) for (const size of SIZES) rows.push(...(await benchOne(kind, size)))
  print(rows)
  if (!process.env.DATABASE_URL) console.log('\nPostgreSQL: skipped (set DATABASE_URL to a server to include it)')
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
