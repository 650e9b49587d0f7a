/**
 * `pnpm bench` (http, after http.bench.ts): tutor search against N demo tutors (1,000 and
 * 10,000; 100,000 too on PostgreSQL with BENCH_LARGE=1) on a fresh PGlite, then on a fresh database of the
 * PostgreSQL server when DATABASE_URL is set (created beside the test one and dropped
 * after). The search is subject + date + postcode + lesson type (students_home, so the
 * travel-distance rule and its bounding box run) sorted by distance. p50/p95 at 10
 * concurrent clients and req/s at 50, beside a one-primary-key-select ceiling served by the
 * same process on the same database handle.
 */
import { addDays } from '@tutoring/domain'
import { CEILING_ROUTE, DURATION_SECONDS, sizesFor, WARMUP_SECONDS, benchKinds, measure, onDemoMarketplace, print, type DatabaseKind, type Row } from './support'

const SEARCH_ROUTE = 'GET /api/v1/search'

function benchOne(kind: DatabaseKind, tutors: number): Promise<Row[]> {
  return onDemoMarketplace(kind, tutors, async ({ handle, today, loadSeconds, serverUrl, ceilingUrl }) => {
    const maths = await handle.db.selectFrom('subjects').select('id').where('title', '=', 'Mathematics').executeTakeFirstOrThrow()
    const query = `subject_id=${maths.id}&date=${addDays(today, 2)}&post_code=SW1A%201AA&filters%5Blesson_type%5D=students_home&sort=distance`
    const searchUrl = `${serverUrl}/api/v1/search?${query}`
    const probe = await fetch(searchUrl)
    if (probe.status !== 200) throw new Error(`search answered ${probe.status}: ${await probe.text()}`)
    const found = ((await probe.json()) as { meta: { total: number } }).meta.total
    const base = { database: kind, tutors, loadSeconds, found }
    return [
      { ...base, route: SEARCH_ROUTE, ...(await measure(searchUrl)) },
      { ...base, route: CEILING_ROUTE, ...(await measure(ceilingUrl)) },
    ]
  })
}

async function main() {
  console.log(`tutor search: ${sizesFor('pglite').join(', ')} demo tutors on PGlite, ${sizesFor('postgres').join(', ')} on PostgreSQL; autocannon ${DURATION_SECONDS} s at 10 and at 50 connections after ${WARMUP_SECONDS} s of warm-up; Node ${process.version}`)
  const rows: Row[] = []
  for (const kind of benchKinds()) for (const size of sizesFor(kind)) rows.push(...(await benchOne(kind, size)))
  print(rows, { [SEARCH_ROUTE]: { p95Ms: 25, ceilingShare: 0.25 } })
  if (!process.env.DATABASE_URL) console.log('\nPostgreSQL: skipped (set DATABASE_URL to a server to include it)')
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
