/**
 * One route of the real server under autocannon, with a CPU profile of the server while
 * the load runs (not while the database is prepared):
 *   npx tsx --conditions=source bench/profile.bench.ts subjects /tmp/subjects.cpuprofile
 * `subjects` loads `GET /api/subjects`, `user` an authenticated `GET /api/v1/users/{id}`.
 * Started the way http.bench.ts starts it (production log level into nothing), on PGlite,
 * or on PostgreSQL when DATABASE_URL is set. The load generator runs in its own process,
 * so the profile holds only the server's frames. Open the file in Chrome's DevTools.
 */
import { fork } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { Session } from 'node:inspector/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import pino from 'pino'
import { createInfrastructure, loadConfig, openPGlite, prepareDatabase, type DatabaseHandle } from '@tutoring/adapters'
import { createTestDatabase } from '@tutoring/adapters/testing'
import { startServer } from '../src/server'

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const WARMUP_SECONDS = 2

function load(url: string, headers: Record<string, string>, duration: number): Promise<{ requestsPerSecond: number; non2xx: number }> {
  return new Promise((resolve, reject) => {
    const options = JSON.stringify({ url, headers, connections: 10, duration })
    const child = fork(fileURLToPath(new URL('./load.worker.mjs', import.meta.url)), [options], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] })
    child.once('message', (m) => resolve(m as { requestsPerSecond: number; non2xx: number }))
    child.once('error', reject)
  })
}

async function openDatabase(dataDir: string): Promise<DatabaseHandle> {
  if (process.env.DATABASE_URL) return createTestDatabase('postgres')
  const handle = await openPGlite(path.join(dataDir, 'pglite'))
  await prepareDatabase(handle)
  return handle
}

async function main(route: string, output: string) {
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
    const target: { url: string; headers: Record<string, string> } =
      route === 'user'
        ? { url: `${server.url}/api/v1/users/${data.user.id}`, headers: { authorization: `Bearer ${data.token}` } }
        : { url: `${server.url}/api/subjects`, headers: {} }
    await load(target.url, target.headers, WARMUP_SECONDS)
    const session = new Session()
    session.connect()
    await session.post('Profiler.enable')
    await session.post('Profiler.start')
    const measured = await load(target.url, target.headers, DURATION_SECONDS)
    const { profile } = await session.post('Profiler.stop')
    await writeFile(output, JSON.stringify(profile))
    session.disconnect()
    console.log(`${route}: ${Math.round(measured.requestsPerSecond)} req/s, ${measured.non2xx} non-2xx`)
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
