/**
 * `pnpm bench` (http, after http.bench.ts): `GET /api/v1/search` as students search, against N
 * demo tutors (see `sizesFor`) on a fresh PGlite, then on a fresh database of the PostgreSQL
 * server when DATABASE_URL is set (created beside the test one and dropped after).
 *
 * Four rows per size: online and students_home (the travel-distance rule and its bounding box),
 * each sorted by distance and by rating. Each row's clients cycle through the same variants of
 * subject x date (today + 1..4) x central London postcode, so no one plan or cache line carries
 * the figures. "found" is the mean `meta.total` over a row's variants. p50/p95/req/s at 10
 * clients beside a one-primary-key-select ceiling served by the same process on the same
 * database handle, measured in the same run.
 */
import { addDays, type IsoDate } from '@tutoring/domain'
import { CEILING_ROUTE, CONNECTIONS, DURATION_SECONDS, sizesFor, WARMUP_SECONDS, benchKinds, measure, onDemoMarketplace, print, type DatabaseKind, type Row } from './support'

/**
 * The demo generator spreads tutors evenly over every subject with levels (all of them), so
 * any subject has about as many tutors; these are the ones students ask for most.
 */
const SUBJECTS = ['Mathematics', 'English', 'Chemistry'] as const
/** Central London, where most demo tutors are near (six of the generator's places lie within a few miles). */
const POSTCODES = ['SW1A 1AA', 'EC1A 1BB', 'W1A 1AA', 'SE1 9SG', 'N1 9AL', 'E14 5AB'] as const
const DAYS_AHEAD = [1, 2, 3, 4] as const
/** lcm(3, 4, 6): every variant a different (subject, date, place). */
const VARIANTS = 12

const SEARCHES = [
  { route: 'online by distance', lessonType: 'online', sort: 'distance' },
  { route: 'online by rating', lessonType: 'online', sort: 'rating' },
  { route: 'students_home by distance', lessonType: 'students_home', sort: 'distance' },
  { route: 'students_home by rating', lessonType: 'students_home', sort: 'rating' },
] as const
type Search = (typeof SEARCHES)[number]

function variantPaths(search: Search, subjectIds: readonly number[], today: IsoDate): string[] {
  return Array.from({ length: VARIANTS }, (_, i) => {
    const query = new URLSearchParams({
      subject_id: String(subjectIds[i % subjectIds.length]!),
      date: addDays(today, DAYS_AHEAD[i % DAYS_AHEAD.length]!),
      post_code: POSTCODES[i % POSTCODES.length]!,
      'filters[lesson_type]': search.lessonType,
      sort: search.sort,
    })
    return `/api/v1/search?${query.toString()}`
  })
}

/** Each variant once, before any is measured: a non-200 fails the bench; the mean of `meta.total` is what the row finds. */
async function meanFound(serverUrl: string, paths: readonly string[]): Promise<number> {
  let total = 0
  for (const path of paths) {
    const answer = await fetch(`${serverUrl}${path}`)
    if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}: ${await answer.text()}`)
    total += ((await answer.json()) as { meta: { total: number } }).meta.total
  }
  return Math.round(total / paths.length)
}

function benchOne(kind: DatabaseKind, tutors: number): Promise<Row[]> {
  return onDemoMarketplace(kind, tutors, async ({ handle, today, loadSeconds, serverUrl, ceilingUrl }) => {
    const subjects = await handle.db.selectFrom('subjects').select(['id', 'title']).where('title', 'in', SUBJECTS).execute()
    const subjectIds = SUBJECTS.map((title) => {
      const subject = subjects.find((s) => s.title === title)
      if (!subject) throw new Error(`no subject ${title} in the reference data`)
      return subject.id
    })
    const base = { database: kind, tutors, loadSeconds }
    const rows: Row[] = []
    for (const search of SEARCHES) {
      const paths = variantPaths(search, subjectIds, today)
      const found = await meanFound(serverUrl, paths)
      rows.push({ ...base, found, route: search.route, ...(await measure({ url: serverUrl, requests: paths.map((path) => ({ path })) })) })
    }
    rows.push({ ...base, found: null, route: CEILING_ROUTE, ...(await measure(ceilingUrl)) })
    return rows
  })
}

async function main() {
  console.log(
    `GET /api/v1/search: ${sizesFor('pglite').join(', ')} demo tutors on PGlite, ${sizesFor('postgres').join(', ')} on PostgreSQL; ` +
      `each row cycles ${VARIANTS} searches (${SUBJECTS.join(' / ')} x today+${DAYS_AHEAD.join('/+')} x ${POSTCODES.join(' / ')}); ` +
      `autocannon ${DURATION_SECONDS} s at ${CONNECTIONS} clients after ${WARMUP_SECONDS} s of warm-up; Node ${process.version}` +
      '\n("found": the mean meta.total over a row\'s searches)',
  )
  const rows: Row[] = []
  for (const kind of benchKinds()) for (const size of sizesFor(kind)) rows.push(...(await benchOne(kind, size)))
  print(rows, Object.fromEntries(SEARCHES.map((s) => [s.route, { p95Ms: 25, ceilingShare: 0.25 }])))
  if (!process.env.DATABASE_URL) console.log('\nPostgreSQL: skipped (set DATABASE_URL to a server to include it)')
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
