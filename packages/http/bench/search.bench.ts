/**
 * `pnpm bench` (http, all.bench.ts): `GET /api/v1/search` as students search, against N
 * demo tutors (BENCH_SIZES, see `sizesFor`) on a fresh PGlite, then on a fresh database of the
 * PostgreSQL server when DATABASE_URL is set (created beside the test one and dropped after;
 * BENCH_DATABASES picks one, see `benchKinds`).
 *
 * Four rows per size: online and students_home (the travel-distance rule and its bounding box),
 * each sorted by distance and by rating. Each row's clients cycle through the same variants of
 * subject x date (today + 1..4) x central London postcode, so no one plan or cache line carries
 * the figures. "found" is the mean `meta.total` over a row's variants. p50/p95/req/s at 10
 * clients beside a one-primary-key-select ceiling served by the same process on the same
 * database handle, measured in the same run; then, over several sizes, how each search's cost
 * grew beside what it found.
 */
import { DAYS_AHEAD, POSTCODES, SEARCHES, SUBJECTS, VARIANTS, searchSubjectIds, variantPaths } from './search-variants'
import { CEILING_ROUTE, CONNECTIONS, DURATION_SECONDS, everyMarketplace, measure, pad, padLeft, print, runWhenCommand, sizesText, WARMUP_SECONDS, type Aim, type MarketplaceRows, type Row } from './support'

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

/** The four rows on one marketplace, each cycling its variants. */
export const searchRows: MarketplaceRows = async ({ handle, today, serverUrl }, base) => {
  const subjectIds = await searchSubjectIds(handle)
  const rows: Row[] = []
  for (const search of SEARCHES) {
    const paths = variantPaths(search, subjectIds, today)
    const found = await meanFound(serverUrl, paths)
    rows.push({ ...base, found, route: search.route, ...(await measure({ url: serverUrl, requests: paths.map((path) => ({ path })) })) })
  }
  return rows
}

export const SEARCH_ROUTES: readonly string[] = SEARCHES.map((s) => s.route)
/** Issue 12's aim for every search row at 100,000 tutors on PostgreSQL. */
export const SEARCH_AIM: Aim = { p95Ms: 25, ceilingShare: 0.25 }

export const searchHeading = () =>
  `GET /api/v1/search: ${sizesText()}; ` +
  `each row cycles ${VARIANTS} searches (${SUBJECTS.join(' / ')} x today+${DAYS_AHEAD.join('/+')} x ${POSTCODES.join(' / ')}); ` +
  `autocannon ${DURATION_SECONDS} s at ${CONNECTIONS} clients after ${WARMUP_SECONDS} s of warm-up; Node ${process.version}` +
  '\n("found": the mean meta.total over a row\'s searches)'

/** The search table (rows of other routes left out, the ceiling kept), then the growth table. */
export function printSearch(rows: readonly Row[]) {
  console.log(searchHeading())
  print(
    rows.filter((r) => r.route === CEILING_ROUTE || SEARCH_ROUTES.includes(r.route)),
    Object.fromEntries(SEARCH_ROUTES.map((route) => [route, SEARCH_AIM])),
  )
  printGrowth(rows)
}

/**
 * The growth table: each search's p50 at each size beside what it found, and how much both grew
 * from the smallest size to the largest, since the cost should grow no faster than the number of
 * tutors near the student.
 */
function printGrowth(rows: readonly Row[]) {
  const sizes = [...new Set(rows.map((r) => r.tutors))].sort((a, b) => a - b)
  if (sizes.length < 2) return
  console.log(`\ngrowth: p50 ms (found) by tutors; cost and found from ${sizes[0]} to ${sizes.at(-1)} tutors`)
  console.log(`${pad('database', 10)}${pad('route', 28)}${sizes.map((n) => padLeft(n, 16)).join('')}${padLeft('p50 x', 9)}${padLeft('found x', 9)}`)
  for (const database of [...new Set(rows.map((r) => r.database))]) {
    for (const { route } of SEARCHES) {
      const bySize = sizes.map((n) => rows.find((r) => r.database === database && r.route === route && r.tutors === n))
      const first = bySize[0]
      const last = bySize.at(-1)
      const factor = (a: number | null | undefined, b: number | null | undefined) => (a && b ? `x${(b / a).toFixed(1)}` : '')
      console.log(
        `${pad(database, 10)}${pad(route, 28)}${bySize.map((r) => padLeft(r ? `${r.p50} (${r.found})` : '', 16)).join('')}` +
          `${padLeft(factor(first?.p50, last?.p50), 9)}${padLeft(factor(first?.found, last?.found), 9)}`,
      )
    }
  }
}

runWhenCommand(import.meta.url, async () => {
  printSearch(await everyMarketplace([searchRows]))
  if (!process.env.DATABASE_URL) console.log('\nPostgreSQL: skipped (set DATABASE_URL to a server to include it)')
})
