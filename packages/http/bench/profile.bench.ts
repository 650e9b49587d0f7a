/**
 * One route of the real server under autocannon, with a CPU profile of the server while
 * the load runs (not while the database is prepared):
 *   npx tsx --conditions=source bench/profile.bench.ts subjects /tmp/subjects.cpuprofile
 * `subjects` loads `GET /api/subjects`, `user` an authenticated `GET /api/v1/users/{id}`,
 * `search` `GET /api/v1/search` cycling search.bench.ts's 48 searches (its four rows' 12
 * variants each) over BENCH_TUTORS demo tutors (default 10,000). Started the way http.bench.ts
 * starts it (production log level into nothing), on PGlite, or on PostgreSQL when DATABASE_URL
 * is set. The load generator runs in its own process, so the profile holds only the server's
 * frames. Open the file in Chrome's DevTools. An output of `-` takes no profile, so the
 * server's CPU per request is measured without the profiler's own cost.
 * BENCH_ANSWERS=<file> (search) first writes each search's status, headers and body there, to
 * compare two versions' answers. BENCH_SEARCH_DATABASE_URL (search) serves a database already
 * seeded (`cli seed --demo N`, then vacuum analyze) instead of loading a fresh one, so runs of
 * two versions can alternate on the same data within minutes.
 */
import { fork } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { Session } from 'node:inspector/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import pino from 'pino'
import { createInfrastructure, loadConfig, openPGlite, openPostgres, prepareDatabase, type DatabaseHandle } from '@tutoring/adapters'
import { createTestDatabase } from '@tutoring/adapters/testing'
import { londonToday, type IsoDate } from '@tutoring/domain/shared'
import { placesGeocoder } from '@tutoring/testkit'
import { startServer } from '../src/server'
import { SEARCHES, searchSubjectIds, variantPaths } from './search-variants'
import { onDemoMarketplace } from './support'

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2)
const SEARCH_TUTORS = Number(process.env.BENCH_TUTORS ?? 10_000)

type Target = { url: string; headers?: Record<string, string>; requests?: Array<{ path: string }> }
type Loaded = { requestsPerSecond: number; p95: number; total: number; non2xx: number }

function load(target: Target, duration: number): Promise<Loaded> {
  return new Promise((resolve, reject) => {
    const options = JSON.stringify({ ...target, connections: 10, duration })
    const child = fork(fileURLToPath(new URL('./load.worker.mjs', import.meta.url)), [options], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] })
    child.once('message', (m) => resolve(m as Loaded))
    child.once('error', reject)
  })
}

/**
 * The main thread's CPU in µs (Linux: its utime and stime, in ticks of 10 ms), or undefined
 * elsewhere. Unlike the process's, it leaves out V8's compiler and GC helper threads, whose
 * work comes in bursts and made the process's figure swing by a fifth between runs.
 */
function mainThreadCpuMicros(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10_000
  } catch {
    return undefined
  }
}

/** The warm-up, then the measured load, profiled unless `output` is `-`; the server's CPU is this process's over the measured load. */
async function profileLoad(name: string, target: Target, output: string) {
  await load(target, WARMUP_SECONDS)
  const session = output === '-' ? undefined : new Session()
  if (session) {
    session.connect()
    await session.post('Profiler.enable')
    await session.post('Profiler.start')
  }
  const cpuBefore = process.cpuUsage()
  const mainBefore = mainThreadCpuMicros()
  const measured = await load(target, DURATION_SECONDS)
  const cpu = process.cpuUsage(cpuBefore)
  const mainAfter = mainThreadCpuMicros()
  if (session) {
    const { profile } = await session.post('Profiler.stop')
    await writeFile(output, JSON.stringify(profile))
    session.disconnect()
  }
  const requests = Math.max(1, measured.total)
  const mainThread = mainBefore === undefined || mainAfter === undefined ? '' : `, main thread ${Math.round((mainAfter - mainBefore) / requests)}`
  console.log(
    `${name}: ${Math.round(measured.requestsPerSecond)} req/s, p95 ${measured.p95} ms, ${measured.total} requests, ${measured.non2xx} non-2xx; ` +
      `server CPU ${Math.round((cpu.user + cpu.system) / requests)} µs/request (user ${Math.round(cpu.user / requests)}${mainThread})${session ? ', profiled' : ''}`,
  )
}

async function openDatabase(dataDir: string): Promise<DatabaseHandle> {
  if (process.env.DATABASE_URL) return createTestDatabase('postgres')
  const handle = await openPGlite(path.join(dataDir, 'pglite'))
  await prepareDatabase(handle)
  return handle
}

/** Each path's answer as a client sees it, less what differs per request (date, request id). */
async function writeAnswers(serverUrl: string, paths: readonly string[], file: string) {
  const varying = new Set(['date', 'x-request-id'])
  const answers = []
  for (const p of paths) {
    const answer = await fetch(`${serverUrl}${p}`)
    const headers = [...answer.headers].filter(([name]) => !varying.has(name))
    answers.push({ path: p, status: answer.status, headers, body: await answer.text() })
  }
  await writeFile(file, JSON.stringify(answers, null, 1))
}

async function profileSearch(output: string) {
  const searchOn = async (handle: DatabaseHandle, today: IsoDate, serverUrl: string, described: string) => {
    const subjectIds = await searchSubjectIds(handle)
    const paths = SEARCHES.flatMap((search) => variantPaths(search, subjectIds, today))
    if (process.env.BENCH_ANSWERS) await writeAnswers(serverUrl, paths, process.env.BENCH_ANSWERS)
    console.log(described)
    await profileLoad('search', { url: serverUrl, requests: paths.map((p) => ({ path: p })) }, output)
  }
  const seeded = process.env.BENCH_SEARCH_DATABASE_URL
  if (seeded) {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'tutoring-profile-'))
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'info', BACKGROUND_JOBS: 'off', THROTTLE_PER_MINUTE: '1000000000' })
    const logger = pino({ level: 'info', base: undefined }, new Writable({ write: (_chunk, _encoding, done) => done() }))
    const infra = await createInfrastructure(config, { database: await openPostgres(seeded, { maxConnections: 10 }), logger, geocoder: placesGeocoder() })
    const server = await startServer(infra, 0)
    try {
      await searchOn(infra.database, londonToday(new Date()), server.url, 'the seeded database of BENCH_SEARCH_DATABASE_URL')
    } finally {
      await server.stop()
      await infra.close()
      await rm(dataDir, { recursive: true, force: true })
    }
    return
  }
  const kind = process.env.DATABASE_URL ? 'postgres' : 'pglite'
  await onDemoMarketplace(kind, SEARCH_TUTORS, ({ handle, today, serverUrl, loadSeconds }) =>
    searchOn(handle, today, serverUrl, `${SEARCH_TUTORS} demo tutors on ${kind} loaded in ${(loadSeconds ?? 0).toFixed(1)} s`),
  )
}

async function main(route: string, output: string) {
  if (route === 'search') return profileSearch(output)
  const dataDir = await mkdtemp(path.join(tmpdir(), 'tutoring-profile-'))
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'info', BACKGROUND_JOBS: 'off', THROTTLE_PER_MINUTE: '1000000000' })
  const logger = pino({ level: 'info', base: undefined }, new Writable({ write: (_chunk, _encoding, done) => done() }))
  const infra = await createInfrastructure(config, { database: await openDatabase(dataDir), logger })
  const server = await startServer(infra, 0)
  try {
    const registered = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', password: 'benchmark password', firstname: 'Bench', lastname: 'Mark', role: 'student', country: 'GB' }),
    })
    const { data } = (await registered.json()) as { data: { token: string; user: { id: number } } }
    const target: Target =
      route === 'user'
        ? { url: `${server.url}/api/v1/users/${data.user.id}`, headers: { authorization: `Bearer ${data.token}` } }
        : { url: `${server.url}/api/subjects`, headers: {} }
    await profileLoad(route, target, output)
  } finally {
    await server.stop()
    await infra.close()
    await rm(dataDir, { recursive: true, force: true })
  }
}

const route = process.argv[2] ?? 'subjects'
main(route, process.argv[3] ?? `${route}.cpuprofile`).catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
