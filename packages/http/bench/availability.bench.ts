/**
 * `pnpm bench` (http, after search.bench.ts): `GET /api/availabilites` on the same demo
 * marketplace as the search bench (N = 1,000 and 10,000; 100,000 too on PostgreSQL with BENCH_LARGE=1), on
 * a fresh PGlite and, with DATABASE_URL, a fresh database of that server. Each connection
 * cycles through 400 teaches drawn at random (seeded), for a date two days ahead and 60
 * minutes, half online and half at the student's home with a postcode (so the travel-distance
 * check and the geocoder run). p50/p95 at 10 concurrent clients, req/s at 50, beside the
 * one-primary-key-select ceiling of the same process and database.
 */
import { addDays } from '@tutoring/domain'
import { CEILING_ROUTE, DURATION_SECONDS, sizesFor, WARMUP_SECONDS, benchKinds, measure, onDemoMarketplace, print, type DatabaseKind, type Row } from './support'

const AVAILABILITY_ROUTE = 'GET /api/availabilites'
const TEACHES = 400

/** `count` of `items` drawn without replacement by a fixed linear congruential sequence: the same teaches every run. */
function seededSample<T>(items: readonly T[], count: number): T[] {
  const pool = [...items]
  let state = 42
  const picked: T[] = []
  while (picked.length < count && pool.length > 0) {
    state = (state * 1103515245 + 12345) % 2147483648
    picked.push(pool.splice(state % pool.length, 1)[0]!)
  }
  return picked
}

function benchOne(kind: DatabaseKind, tutors: number): Promise<Row[]> {
  return onDemoMarketplace(kind, tutors, async ({ handle, today, loadSeconds, serverUrl, ceilingUrl }) => {
    const all = await handle.db.selectFrom('teaches').select('id').where('enabled', '=', true).where('deleted_at', 'is', null).orderBy('id').execute()
    const teaches = seededSample(all, TEACHES)
    const date = addDays(today, 2)
    const requests = teaches.map((row, i) => ({
      path:
        `/api/availabilites?teach_id=${row.id}&date=${date}&duration=60` +
        (i % 2 === 0 ? '&lesson_type=3' : '&lesson_type=2&post_code=SW1A%201AA'),
    }))
    let slots = 0
    for (const { path } of requests.slice(0, 20)) {
      const probe = await fetch(`${serverUrl}${path}`)
      if (probe.status !== 200) throw new Error(`availability answered ${probe.status}: ${await probe.text()}`)
      const body = (await probe.json()) as { data: { availabilities: Array<{ times: unknown[] }> } }
      slots += body.data.availabilities.reduce((n, day) => n + day.times.length, 0)
    }
    const base = { database: kind, tutors, loadSeconds, found: slots }
    return [
      { ...base, route: AVAILABILITY_ROUTE, ...(await measure({ url: serverUrl, requests })) },
      { ...base, route: CEILING_ROUTE, ...(await measure(ceilingUrl)) },
    ]
  })
}

async function main() {
  console.log(
    `availability: ${sizesFor('pglite').join(', ')} demo tutors on PGlite, ${sizesFor('postgres').join(', ')} on PostgreSQL, ${TEACHES} random teaches; autocannon ${DURATION_SECONDS} s at 10 and at 50 connections after ${WARMUP_SECONDS} s of warm-up; Node ${process.version}` +
      '\n("found" is the times of the first 20 answers, a check that the answers are not empty)',
  )
  const rows: Row[] = []
  for (const kind of benchKinds()) for (const size of sizesFor(kind)) rows.push(...(await benchOne(kind, size)))
  print(rows, { [AVAILABILITY_ROUTE]: { p95Ms: 10, ceilingShare: 0.35 } })
  if (!process.env.DATABASE_URL) console.log('\nPostgreSQL: skipped (set DATABASE_URL to a server to include it)')
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
