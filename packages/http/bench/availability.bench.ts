/**
 * `pnpm bench` (http, all.bench.ts): `GET /api/availabilites` on the same demo marketplace
 * as the search bench, loaded once for both (BENCH_SIZES and BENCH_DATABASES: see `sizesFor`
 * and `benchKinds`), on a fresh PGlite and, with DATABASE_URL, a fresh database of that server.
 * Two rows, each cycling its own 400 teaches drawn at random (seeded) for 60 minutes on dates
 * today + 1..4: online, and at the student's home with the postcode of the tutor's own town,
 * as a student who found the tutor nearby would ask (so the travel-distance check and the
 * geocoder run). p50/p95/req/s at 10 clients beside the one-primary-key-select ceiling of the
 * same process and database.
 */
import { addDays, type IsoDate } from '@tutoring/domain/shared'
import { CEILING_ROUTE, CONNECTIONS, DURATION_SECONDS, everyMarketplace, measure, print, runWhenCommand, sizesText, WARMUP_SECONDS, type Aim, type MarketplaceRows, type Row } from './support'

const TEACHES = 400
const DAYS_AHEAD = [1, 2, 3, 4] as const
/** Answers read before measuring: a non-200 fails the bench, and their times show the answers are not empty. */
const PROBES = 20
const ONLINE_ROUTE = 'online'
const STUDENTS_HOME_ROUTE = 'students_home + postcode'

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

const dateFor = (today: IsoDate, i: number) => addDays(today, DAYS_AHEAD[i % DAYS_AHEAD.length]!)

/** The mean number of times over the first answers; throws on a non-200. */
async function meanTimes(serverUrl: string, paths: readonly string[]): Promise<number> {
  const probed = paths.slice(0, PROBES)
  let times = 0
  for (const path of probed) {
    const answer = await fetch(`${serverUrl}${path}`)
    if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}: ${await answer.text()}`)
    const body = (await answer.json()) as { data: { availabilities: Array<{ times: unknown[] }> } }
    times += body.data.availabilities.reduce((n, day) => n + day.times.length, 0)
  }
  return Math.round(times / probed.length)
}

/** The two rows on one marketplace, each cycling its own teaches. */
export const availabilityRows: MarketplaceRows = async ({ handle, today, serverUrl }, base) => {
  const live = handle.db.selectFrom('teaches').where('teaches.enabled', '=', true).where('teaches.deleted_at', 'is', null)
  const anyTeach = await live.select('teaches.id').orderBy('teaches.id').execute()
  const online = seededSample(anyTeach, TEACHES).map((t, i) => `/api/availabilites?teach_id=${t.id}&date=${dateFor(today, i)}&duration=60&lesson_type=3`)
  // Tutors who travel: with none, students_home is never offered and the travel check is skipped.
  const travelling = await live
    .innerJoin('locations', 'locations.tutor_id', 'teaches.tutor_id')
    .where('locations.travel_distance_miles', '>', 0)
    .select(['teaches.id', 'locations.postcode'])
    .orderBy('teaches.id')
    .execute()
  const studentsHome = seededSample(travelling, TEACHES).map(
    (t, i) => `/api/availabilites?teach_id=${t.id}&date=${dateFor(today, i)}&duration=60&lesson_type=2&post_code=${encodeURIComponent(t.postcode)}`,
  )
  const rows: Row[] = []
  for (const [route, paths] of [
    [ONLINE_ROUTE, online],
    [STUDENTS_HOME_ROUTE, studentsHome],
  ] as const) {
    const found = await meanTimes(serverUrl, paths)
    rows.push({ ...base, found, route, ...(await measure({ url: serverUrl, requests: paths.map((path) => ({ path })) })) })
  }
  return rows
}

export const AVAILABILITY_ROUTES: readonly string[] = [ONLINE_ROUTE, STUDENTS_HOME_ROUTE]
/** Issue 12's aim for both rows at 100,000 tutors on PostgreSQL. */
export const AVAILABILITY_AIM: Aim = { p95Ms: 10, ceilingShare: 0.35 }

/** The availability table (rows of other routes left out, the ceiling kept). */
export function printAvailability(rows: readonly Row[]) {
  console.log(
    `\nGET /api/availabilites: ${sizesText()}; ` +
      `each row cycles ${TEACHES} random teaches on dates today+${DAYS_AHEAD.join('/+')}; ` +
      `autocannon ${DURATION_SECONDS} s at ${CONNECTIONS} clients after ${WARMUP_SECONDS} s of warm-up; Node ${process.version}` +
      `\n("found": the mean number of times in the row's first ${PROBES} answers, a check that they are not empty)`,
  )
  print(
    rows.filter((r) => r.route === CEILING_ROUTE || AVAILABILITY_ROUTES.includes(r.route)),
    Object.fromEntries(AVAILABILITY_ROUTES.map((route) => [route, AVAILABILITY_AIM])),
  )
}

runWhenCommand(import.meta.url, async () => {
  printAvailability(await everyMarketplace([availabilityRows]))
  if (!process.env.DATABASE_URL) console.log('\nPostgreSQL: skipped (set DATABASE_URL to a server to include it)')
})
