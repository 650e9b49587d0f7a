/** What the route benches share: fresh databases, the load generator, the ceiling route, the table. */
import { fork } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath, pathToFileURL } from 'node:url'
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
import { londonToday, type IsoDate } from '@tutoring/domain/shared'
import { demoTutors, placesGeocoder } from '@tutoring/testkit'
import { startServer } from '../src/server'

export type DatabaseKind = 'pglite' | 'postgres'

export const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
export const WARMUP_SECONDS = 2
/** Clients at once: the aims are stated at 10; BENCH_CONNECTIONS=1 gives single-client times. */
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)
/**
 * The demo marketplace sizes: BENCH_SIZES (comma-separated, for every database run) to run
 * exactly those, say 100,000 and 1,000,000 on PostgreSQL alone; else 1,000 and 10,000, which
 * load in seconds on either database.
 */
export const sizesFor = (): number[] => {
  const listed = process.env.BENCH_SIZES
  if (listed !== undefined && listed.trim() !== '') return listed.split(',').map(parseSize)
  return [1_000, 10_000]
}

function parseSize(text: string): number {
  const size = Number(text.trim().replaceAll('_', ''))
  if (!Number.isInteger(size) || size < 1) throw new Error(`BENCH_SIZES: ${JSON.stringify(text)} is not a number of tutors`)
  return size
}

export type Measured = { requestsPerSecond: number; p50: number; p95: number; p99: number; total: number; non2xx: number; errors: number }
/** `found`: what the route's answers hold (null for the ceiling). */
/** `loadSeconds` null: measured on a database seeded before the run (BENCH_SEEDED_URL). */
export type Row = { database: string; tutors: number; loadSeconds: number | null; found: number | null; route: string; p50: number; p95: number; rps: number }
/** What `load` takes: one URL, or a base URL and the paths each connection cycles through. */
export type LoadTarget = string | { url: string; requests: Array<{ path: string }> }

export function load(target: LoadTarget, connections: number, duration: number): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const options = JSON.stringify({ ...(typeof target === 'string' ? { url: target } : target), connections, duration })
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

async function freshDatabase(kind: DatabaseKind): Promise<{ handle: DatabaseHandle; drop(): Promise<void> }> {
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

/** Ten clients, as the aims are stated: p50, p95 and req/s after a warm-up; any non-2xx answer fails the bench. */
export async function measure(target: LoadTarget): Promise<Pick<Row, 'p50' | 'p95' | 'rps'>> {
  await load(target, CONNECTIONS, WARMUP_SECONDS)
  const m = await load(target, CONNECTIONS, DURATION_SECONDS)
  const name = typeof target === 'string' ? target : target.url
  if (m.non2xx > 0 || m.errors > 0) throw new Error(`${name}: ${m.non2xx} non-2xx answers, ${m.errors} errors`)
  return { p50: m.p50, p95: m.p95, rps: m.requestsPerSecond }
}

export type DemoMarketplace = {
  handle: DatabaseHandle
  today: IsoDate
  /** How many searchable demo tutors it holds. */
  tutors: number
  /** The first demo tutor's user id (the ceiling reads that user). */
  firstTutorId: number
  /** Seconds the demo load took; null for a database seeded before the run. */
  loadSeconds: number | null
  serverUrl: string
  ceilingUrl: string
}

type Marketplace = { handle: DatabaseHandle; tutors: number; firstTutorId: number; loadSeconds: number | null; drop(): Promise<void> }

/** A fresh database of `kind` with `tutors` searchable demo tutors (seed 42), dropped after. */
async function loadedMarketplace(kind: DatabaseKind, tutors: number, today: IsoDate): Promise<Marketplace> {
  const { handle, drop } = await freshDatabase(kind)
  const catalog = await demoCatalog(handle.db)
  const started = performance.now()
  const tutorIds = await loadDemoTutors(handle.db, demoTutors({ seed: 42, tutors, today, catalog, searchableOnly: true }), { tag: 'bench', passwordHash: 'not-a-login' })
  return { handle, tutors, firstTutorId: tutorIds[0]!, loadSeconds: (performance.now() - started) / 1000, drop }
}

/**
 * BENCH_SEEDED_URL: a PostgreSQL database seeded before the run (`cli seed --demo 1000000`
 * today), measured as it stands and kept: a million tutors take longer to load than every
 * row takes to measure.
 */
async function seededMarketplace(url: string): Promise<Marketplace> {
  const handle = await openPostgres(url, { maxConnections: 10 })
  await prepareDatabase(handle)
  const counted = await handle.db
    .selectFrom('tutor_search')
    .select((eb) => [eb.fn.countAll<string>().as('tutors'), eb.fn.min('tutor_id').as('first')])
    .where('searchable', '=', true)
    .executeTakeFirstOrThrow()
  if (counted.first === null) throw new Error('BENCH_SEEDED_URL: the database holds no searchable tutor; seed it with `cli seed --demo N` first')
  return { handle, tutors: Number(counted.tutors), firstTutorId: counted.first, loadSeconds: null, drop: async () => undefined }
}

/** The app's server and the ceiling route on `marketplace`, for `run`; the database dropped after if it was made for this. */
async function onMarketplace<T>(marketplace: Marketplace, today: IsoDate, run: (m: DemoMarketplace) => Promise<T>): Promise<T> {
  const { handle } = marketplace
  const dataDir = await mkdtemp(path.join(tmpdir(), 'tutoring-bench-'))
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'info', BACKGROUND_JOBS: 'off', THROTTLE_PER_MINUTE: '1000000000' })
  const infra = await createInfrastructure(config, { database: handle, logger: discardingLogger(), geocoder: placesGeocoder() })
  try {
    await analyzeDatabase(handle.db)
    const server = await startServer(infra, 0)
    const ceiling = await startCeiling(handle, marketplace.firstTutorId)
    try {
      return await run({ handle, today, tutors: marketplace.tutors, firstTutorId: marketplace.firstTutorId, loadSeconds: marketplace.loadSeconds, serverUrl: server.url, ceilingUrl: ceiling.url })
    } finally {
      await ceiling.stop()
      await server.stop()
    }
  } finally {
    await infra.close()
    await marketplace.drop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

/** A fresh database of `kind` with `tutors` searchable demo tutors, the app's server and the ceiling on it, for `run`. */
export async function onDemoMarketplace<T>(kind: DatabaseKind, tutors: number, run: (m: DemoMarketplace) => Promise<T>): Promise<T> {
  const today = londonToday(new Date())
  return onMarketplace(await loadedMarketplace(kind, tutors, today), today, run)
}

/** What a route bench measures on a demo marketplace: its rows, without the ceiling. */
export type MarketplaceRows = (m: DemoMarketplace, base: Pick<Row, 'database' | 'tutors' | 'loadSeconds'>) => Promise<Row[]>

/** Every bench of `benches` on one marketplace, then the ceiling on it. */
async function rowsOn(m: DemoMarketplace, kind: DatabaseKind, benches: readonly MarketplaceRows[]): Promise<Row[]> {
  const base = { database: kind, tutors: m.tutors, loadSeconds: m.loadSeconds }
  const rows: Row[] = []
  for (const bench of benches) rows.push(...(await bench(m, base)))
  rows.push({ ...base, found: null, route: CEILING_ROUTE, ...(await measure(m.ceilingUrl)) })
  return rows
}

/**
 * Every size on every database of this run, each loaded once for every bench in `benches` (so
 * search and availability share a load), then the database of BENCH_SEEDED_URL if given.
 */
export async function everyMarketplace(benches: readonly MarketplaceRows[]): Promise<Row[]> {
  const rows: Row[] = []
  for (const kind of benchKinds()) for (const size of sizesFor()) rows.push(...(await onDemoMarketplace(kind, size, (m) => rowsOn(m, kind, benches))))
  const seeded = process.env.BENCH_SEEDED_URL?.trim()
  if (seeded) rows.push(...(await onMarketplace(await seededMarketplace(seeded), londonToday(new Date()), (m) => rowsOn(m, 'postgres', benches))))
  return rows
}

/**
 * PGlite, and PostgreSQL too when DATABASE_URL names a server; BENCH_DATABASES=postgres (or
 * pglite) runs only that one, so a large BENCH_SIZES need not load PGlite first.
 */
export const benchKinds = (): DatabaseKind[] => {
  const available: DatabaseKind[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite']
  const listed = process.env.BENCH_DATABASES
  if (listed === undefined || listed.trim() === '') return available
  const wanted = listed.split(',').map((name) => name.trim())
  const unknown = wanted.filter((name) => !available.some((kind) => kind === name))
  if (unknown.length > 0) throw new Error(`BENCH_DATABASES: ${unknown.join(', ')} is not one of ${available.join(', ')} (postgres needs DATABASE_URL)`)
  return available.filter((kind) => wanted.includes(kind))
}

/** For a bench's heading: the sizes on each database it will run. */
export const sizesText = (): string => benchKinds().map((kind) => `${sizesFor().join(', ')} demo tutors on ${kind}`).join('; ')

/** The aims for a route at 100,000 tutors on PostgreSQL (issue 12): p95 at 10 clients, and req/s as a share of the ceiling's. */
export type Aim = { p95Ms: number; ceilingShare: number }

/** Whether a route's p95 and its share of the ceiling's req/s meet `aim`: the one rule the tables and the aims summary judge by. */
export const meetsAim = (aim: Aim, p95: number, share: number): boolean => p95 < aim.p95Ms && share >= aim.ceilingShare

/**
 * Runs a bench file's `main` when the file is the command (`tsx bench/search.bench.ts`), not
 * when `all.bench.ts` imports its rows.
 */
export function runWhenCommand(moduleUrl: string, main: () => Promise<void>) {
  const command = process.argv[1]
  if (command === undefined || pathToFileURL(path.resolve(command)).href !== moduleUrl) return
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  })
}

export const pad = (s: string | number, n: number) => String(s).padEnd(n)
export const padLeft = (s: string | number, n: number) => String(s).padStart(n)

export const AIM_DATABASE = 'postgres'
export const AIM_TUTORS = 100_000

/**
 * The table: each route beside the ceiling of the same database and size, with its share of
 * the ceiling's req/s; with an aim, whether a PostgreSQL run at 100,000 tutors meets it
 * (elsewhere the aim column stays empty: the aims say nothing of other sizes).
 */
export function print(rows: Row[], aims: Record<string, Aim>) {
  const routesByAim = new Map<string, string[]>()
  for (const [route, aim] of Object.entries(aims)) {
    const text = `p95 < ${aim.p95Ms} ms and >= ${Math.round(aim.ceilingShare * 100)} % of the ceiling's req/s`
    routesByAim.set(text, [...(routesByAim.get(text) ?? []), route])
  }
  for (const [aim, routes] of routesByAim) {
    console.log(`\naim (${AIM_DATABASE}, ${AIM_TUTORS.toLocaleString('en-GB')} tutors, ${CONNECTIONS} clients) for ${routes.join(', ')}: ${aim}`)
  }
  console.log(
    `${pad('database', 10)}${padLeft('tutors', 8)}${padLeft('load s', 8)}${padLeft('found', 7)}  ${pad('route', 28)}${padLeft('p50 ms', 8)}${padLeft('p95 ms', 8)}${padLeft('req/s', 8)}${padLeft('of ceil', 9)}  aim`,
  )
  for (const r of rows) {
    const ceiling = rows.find((c) => c.database === r.database && c.tutors === r.tutors && c.route === CEILING_ROUTE)
    const share = ceiling && r.route !== CEILING_ROUTE ? r.rps / ceiling.rps : undefined
    const aim = aims[r.route]
    const verdict = aim && r.database === AIM_DATABASE && r.tutors === AIM_TUTORS ? (meetsAim(aim, r.p95, share ?? 0) ? 'MET' : 'MISSED') : ''
    console.log(
      `${pad(r.database, 10)}${padLeft(r.tutors, 8)}${padLeft(r.loadSeconds === null ? 'seeded' : r.loadSeconds.toFixed(1), 8)}${padLeft(r.found ?? '', 7)}  ${pad(r.route, 28)}${padLeft(r.p50, 8)}${padLeft(r.p95, 8)}${padLeft(Math.round(r.rps), 8)}${padLeft(share === undefined ? '' : `${Math.round(share * 100)} %`, 9)}  ${verdict}`,
    )
  }
}

export const CEILING_ROUTE = 'one PK select (ceiling)'
