/**
 * `pnpm bench` (http): booking creation through the real server (startServer, port 0).
 * Two scenarios, each a fresh set of prepared requests:
 * - contention: every request books one of a few slots of ONE tutor (most answers are 409
 *   slot_unavailable; the per-tutor lock serialises them all);
 * - spread: every request books its own slot of one of many tutors (all 201; tutors' locks
 *   do not meet).
 * Students are made directly in the database (no password hashing in the figures); each
 * books at most three times (the unpaid-bookings limit). PGlite, then PostgreSQL when
 * DATABASE_URL is set (BENCH_DATABASES picks one); BENCH_CONNECTIONS clients (default 10);
 * BENCH_SCENARIOS picks scenarios (say `spread`). The server runs in this process and the load
 * in another, so this process's CPU time across the load window is the server's: the table
 * shows it per answer. BENCH_PROFILE=<prefix> also writes a CPU profile of the server during
 * each load, `<prefix>-<database>-<scenario>.cpuprofile` (open it in Chrome's DevTools).
 */
import { fork } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { Session } from 'node:inspector/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import pino from 'pino'
import { createInfrastructure, loadConfig, openPGlite, prepareDatabase, type DatabaseHandle, type Infrastructure } from '@tutoring/adapters'
import { createTestDatabase } from '@tutoring/adapters/testing'
import { startServer } from '../src/server'
import { benchKinds, runWhenCommand, type DatabaseKind } from './support'

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const HOUR = 3_600_000
const SLOT_MINUTES = 30

type Measured = { total: number; requestsPerSecond: number; p50: number; p95: number; p99: number; statuses: Record<string, number>; errors: number; exhausted: boolean }
type Scenario = 'contention' | 'spread'
/** A measured load with the server's CPU time per answer (user and system, µs). */
export type BookingRow = Measured & { database: DatabaseKind; scenario: Scenario; cpuMicros: number }

const SCENARIOS: Scenario[] = ['contention', 'spread']
const scenarios = (): Scenario[] => {
  const listed = process.env.BENCH_SCENARIOS
  if (listed === undefined || listed.trim() === '') return SCENARIOS
  const wanted = listed.split(',').map((name) => name.trim())
  const unknown = wanted.filter((name) => !SCENARIOS.some((s) => s === name))
  if (unknown.length > 0) throw new Error(`BENCH_SCENARIOS: ${unknown.join(', ')} is not one of ${SCENARIOS.join(', ')}`)
  return SCENARIOS.filter((s) => wanted.includes(s))
}

/** `load`, with this process's CPU time across it and, given a path, a CPU profile of it. */
async function measured(url: string, requests: Prepared[], profilePath: string | undefined): Promise<Measured & { cpuMicros: number }> {
  const session = profilePath === undefined ? undefined : new Session()
  let cpu = process.cpuUsage()
  const m = await load(url, requests, async () => {
    if (session) {
      session.connect()
      await session.post('Profiler.enable')
      await session.post('Profiler.start')
    }
    cpu = process.cpuUsage()
  })
  const used = process.cpuUsage(cpu)
  if (session && profilePath !== undefined) {
    const { profile } = await session.post('Profiler.stop')
    await writeFile(profilePath, JSON.stringify(profile))
    session.disconnect()
  }
  return { ...m, cpuMicros: Math.round((used.user + used.system) / Math.max(1, m.total)) }
}
type Prepared = { token: string; body: Record<string, unknown> }

/** The load, in its own process; `starting` runs once the requests have reached it, just before it starts. */
function load(url: string, requests: Prepared[], starting: () => Promise<void>): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./booking.worker.mjs', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    child.send({ url, requests, connections: CONNECTIONS, durationSeconds: DURATION_SECONDS })
    child.once('message', () => {
      starting().then(() => {
        child.once('message', (m) => resolve(m as Measured))
        child.send('start')
      }, reject)
    })
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`load generator exited with ${code}`))))
  })
}

const discardingLogger = () => pino({ level: 'info', base: undefined }, new Writable({ write: (_c, _e, done) => done() }))

async function openDatabase(kind: DatabaseKind, dataDir: string): Promise<DatabaseHandle> {
  if (kind === 'postgres') return createTestDatabase('postgres')
  const handle = await openPGlite(path.join(dataDir, 'pglite'))
  await prepareDatabase(handle)
  return handle
}

let serial = 0
async function users(infra: Infrastructure, role: 1 | 3, count: number): Promise<Array<{ id: number; token: string }>> {
  const rows = await infra.database.db
    .insertInto('users')
    .values(
      Array.from({ length: count }, () => {
        serial++
        return { email: `bench${serial}@example.com`, password_hash: 'x', username: `bench${serial}`, firstname: 'Bench', lastname: `User ${serial}`, role_id: role, country: 'GB', email_verified_at: null, processor_customer_id: null, processor_account_id: null, deleted_at: null }
      }),
    )
    .returning('id')
    .execute()
  return Promise.all(
    rows.map(async ({ id }) => {
      const { token, hash } = infra.secrets.generate()
      await infra.uow.repos.accessTokens.insert({ userId: id, tokenHash: hash, expiresAt: new Date(Date.now() + 86_400_000) })
      return { id, token }
    }),
  )
}

/**
 * Tutors who may be booked (every check passed, a subscription trialing: CONTRACT §14), open
 * all day every day without buffers, each with one teach of Mathematics at GCSE.
 */
async function tutors(infra: Infrastructure, serverUrl: string, count: number): Promise<number[]> {
  const db = infra.database.db
  const subject = await db.selectFrom('subjects').select('id').where('title', '=', 'Mathematics').executeTakeFirstOrThrow()
  const level = await db.selectFrom('subject_levels').select('id').where('title', '=', 'GCSE').executeTakeFirstOrThrow()
  const plan = await db.selectFrom('subscription_plans').select('id').where('active', '=', true).orderBy('id').executeTakeFirstOrThrow()
  const made = await users(infra, 3, count)
  await db
    .insertInto('verifications')
    .values(
      made.flatMap(({ id }) =>
        (['identity', 'dbs', 'qualification'] as const).map((kind) => ({
          user_id: id, kind, status: 'PASS' as const, reference: `bench-${kind}-${id}`, redirect_url: null, document_file_id: null, certificate_number: null, issue_date: null, reviewed_by: null,
        })),
      ),
    )
    .execute()
  await db
    .insertInto('subscriptions')
    .values(made.map(({ id }) => ({ user_id: id, plan_id: plan.id, processor_subscription_id: null, status: 'trialing' as const, trial_ends_at: null, current_period_end: null, deleted_at: null })))
    .execute()
  const teachIds: number[] = []
  for (const tutor of made) {
    const post = (p: string, body: unknown) =>
      fetch(`${serverUrl}${p}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${tutor.token}` }, body: JSON.stringify(body) })
    const teach = await post('/api/v1/teaches', { subject_id: subject.id, subject_level_ids: [level.id], hourly_rate: '30.00' })
    teachIds.push(((await teach.json()) as { data: { id: number } }).data.id)
    for (const day of ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY']) {
      await post('/api/v1/day-availabilities', { day, slots: [{ from: '00:00', to: '24:00' }], lesson_types: ['online'], buffer_minutes: 0 })
    }
  }
  return teachIds
}

const londonHour = (at: Date) => Number(new Intl.DateTimeFormat('en-GB', { hour: '2-digit', hourCycle: 'h23', timeZone: 'Europe/London' }).format(at))

/** Slot starts from tomorrow on, 30 minutes each, never crossing London midnight. */
function slotStarts(count: number): Date[] {
  const first = Math.ceil(Date.now() / HOUR) * HOUR + 24 * HOUR
  const starts: Date[] = []
  for (let i = 0; starts.length < count; i++) {
    const at = new Date(first + i * SLOT_MINUTES * 60_000)
    if (!(londonHour(at) === 23 && at.getUTCMinutes() === 30)) starts.push(at)
  }
  return starts
}

async function prepare(infra: Infrastructure, serverUrl: string, scenario: Scenario, requestCount: number): Promise<Prepared[]> {
  const level = await infra.database.db.selectFrom('subject_levels').select('id').where('title', '=', 'GCSE').executeTakeFirstOrThrow()
  const teachIds = await tutors(infra, serverUrl, scenario === 'contention' ? 1 : 40)
  const students = await users(infra, 1, Math.ceil(requestCount / 3))
  const distinctSlots = scenario === 'contention' ? 16 : Math.ceil(requestCount / teachIds.length)
  const starts = slotStarts(distinctSlots)
  return Array.from({ length: requestCount }, (_, i) => {
    const start = starts[Math.floor(i / teachIds.length) % starts.length]!
    return {
      token: students[Math.floor(i / 3)]!.token,
      body: {
        teach_id: teachIds[i % teachIds.length]!,
        subject_level_id: level.id,
        lesson_type: 3,
        start: start.toISOString(),
        finish: new Date(start.getTime() + SLOT_MINUTES * 60_000).toISOString(),
      },
    }
  })
}

/** Issue 12's aim for the spread scenario on PostgreSQL. */
export const BOOKING_AIM = { scenario: 'spread', database: 'postgres', p95Ms: 50, requestsPerSecond: 300 } as const

/** The scenarios (BENCH_SCENARIOS) on fresh databases of `kind`. */
export async function bookingRows(kind: DatabaseKind): Promise<BookingRow[]> {
  const rows: BookingRow[] = []
  for (const scenario of scenarios()) {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'tutoring-bench-'))
    const database = await openDatabase(kind, dataDir)
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      BACKGROUND_JOBS: 'off',
      THROTTLE_PER_MINUTE: '1000000000',
      AUTH_THROTTLE_PER_MINUTE: '1000000000',
      BOOKING_HOLD_MINUTES: '600',
    })
    const infra = await createInfrastructure(config, { database, logger: discardingLogger() })
    const server = await startServer(infra, 0)
    try {
      const requests = await prepare(infra, server.url, scenario, Number(process.env.BENCH_BOOKINGS ?? 6000))
      const prefix = process.env.BENCH_PROFILE
      const m = await measured(`${server.url}/api/bookings`, requests, prefix ? `${prefix}-${kind}-${scenario}.cpuprofile` : undefined)
      const unexpected = Object.keys(m.statuses).filter((s) => s !== '201' && s !== '409')
      if (unexpected.length > 0 || m.errors > 0) throw new Error(`${scenario}: statuses ${JSON.stringify(m.statuses)}, ${m.errors} errors`)
      rows.push({ database: kind, scenario, ...m })
    } finally {
      await server.stop()
      await infra.close()
      await rm(dataDir, { recursive: true, force: true })
    }
  }
  return rows
}

export function printBooking(rows: readonly BookingRow[]) {
  console.log(`\nbooking creation: ${CONNECTIONS} connections, up to ${DURATION_SECONDS} s per scenario; Node ${process.version}`)
  console.log(`aim (${BOOKING_AIM.database}, ${BOOKING_AIM.scenario}): >= ${BOOKING_AIM.requestsPerSecond} req/s and p95 < ${BOOKING_AIM.p95Ms} ms`)
  console.log(`${'scenario'.padEnd(22)}${'req/s'.padStart(8)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'CPU µs'.padStart(9)}  answers`)
  for (const r of rows) {
    console.log(
      `${`${r.database} ${r.scenario}`.padEnd(22)}${Math.round(r.requestsPerSecond).toString().padStart(8)}${r.p50.toString().padStart(9)}${r.p95.toString().padStart(9)}${r.p99.toString().padStart(9)}${r.cpuMicros.toString().padStart(9)}  ${JSON.stringify(r.statuses)}${r.exhausted ? ' (ran out of prepared requests)' : ''}`,
    )
  }
}

runWhenCommand(import.meta.url, async () => {
  const kinds = benchKinds()
  for (const kind of kinds) printBooking(await bookingRows(kind))
  if (!kinds.includes('postgres')) console.log('\nPostgreSQL: skipped (set DATABASE_URL to a server to include it)')
})
