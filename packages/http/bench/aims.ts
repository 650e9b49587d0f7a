/**
 * The aims of issues 12 and 20, judged from one run's rows: each with what was measured, its
 * ratio and a verdict, or "not measured" when the run had no such row (the aims are stated for
 * PostgreSQL, mostly at 100,000 tutors; BENCH_SIZES and DATABASE_URL decide what a run holds).
 */
import { AVAILABILITY_AIM, AVAILABILITY_ROUTES } from './availability.bench'
import { BOOKING_AIM, type BookingRow } from './booking.bench'
import { PLATFORM_AIMS, platformShare, type PlatformRow } from './http.bench'
import { SEARCH_AIM, SEARCH_ROUTES } from './search.bench'
import { AIM_DATABASE, AIM_TUTORS, CEILING_ROUTE, meetsAim, pad, type Aim, type Row } from './support'

export type BenchRun = { platform: readonly PlatformRow[]; marketplace: readonly Row[]; booking: readonly BookingRow[] }

type Verdict = 'MET' | 'MISSED' | 'not measured'
type Judged = { aim: string; measured: string; verdict: Verdict }

const LARGE = 1_000_000
const SMALL = 1_000
const LARGE_P95_MS = 100

const percent = (share: number) => `${Math.round(share * 100)} %`
const count = (n: number) => Math.round(n).toLocaleString('en-GB')
const notMeasured = (aim: string, needs: string): Judged => ({ aim, measured: `needs ${needs}`, verdict: 'not measured' })

/** A marketplace route at 100,000 tutors on PostgreSQL against its p95 and its share of the ceiling's req/s. */
function routeAim(rows: readonly Row[], route: string, aim: Aim, label: string): Judged {
  const name = `${label} ${route}: p95 < ${aim.p95Ms} ms, >= ${percent(aim.ceilingShare)} of the one-select ceiling`
  const at = (r: string) => rows.find((x) => x.database === AIM_DATABASE && x.tutors === AIM_TUTORS && x.route === r)
  const row = at(route)
  const ceiling = at(CEILING_ROUTE)
  if (!row || !ceiling) return notMeasured(name, `${AIM_DATABASE} at ${count(AIM_TUTORS)} tutors`)
  const share = row.rps / ceiling.rps
  return {
    aim: name,
    measured: `p95 ${row.p95} ms, ${count(row.rps)} req/s = ${percent(share)} of ${count(ceiling.rps)}`,
    verdict: meetsAim(aim, row.p95, share) ? 'MET' : 'MISSED',
  }
}

function bookingAim(rows: readonly BookingRow[]): Judged {
  const aim = `booking ${BOOKING_AIM.scenario} over 40 tutors: >= ${BOOKING_AIM.requestsPerSecond} req/s, p95 < ${BOOKING_AIM.p95Ms} ms`
  const row = rows.find((r) => r.database === BOOKING_AIM.database && r.scenario === BOOKING_AIM.scenario)
  if (!row) return notMeasured(aim, BOOKING_AIM.database)
  const met = row.requestsPerSecond >= BOOKING_AIM.requestsPerSecond && row.p95 < BOOKING_AIM.p95Ms
  return { aim, measured: `${count(row.requestsPerSecond)} req/s, p95 ${row.p95} ms`, verdict: met ? 'MET' : 'MISSED' }
}

function platformAims(rows: readonly PlatformRow[]): Judged[] {
  const databases = [...new Set(rows.map((r) => r.database))]
  return PLATFORM_AIMS.map((aim) => {
    const name = `${aim.route} against ${aim.ceiling}: >= ${percent(aim.share)} of its req/s`
    if (databases.length === 0) return notMeasured(name, 'a platform run')
    const shares = databases.map((database) => ({ database, ...platformShare(rows.filter((r) => r.database === database), aim) }))
    return {
      aim: name,
      measured: shares.map((s) => `${s.database} ${percent(s.byRate)} (${percent(s.byCpu)} by CPU)`).join('; '),
      verdict: shares.every((s) => s.byRate >= aim.share) ? 'MET' : 'MISSED',
    }
  })
}

/** At a million tutors every search and availability row answers with p95 < 100 ms. */
function largeAim(rows: readonly Row[]): Judged {
  const aim = `every search and availability row at ${count(LARGE)} tutors: p95 < ${LARGE_P95_MS} ms`
  const large = rows.filter((r) => r.database === AIM_DATABASE && r.tutors === LARGE && r.route !== CEILING_ROUTE)
  if (large.length === 0) return notMeasured(aim, `${AIM_DATABASE} at ${count(LARGE)} tutors`)
  const worst = large.reduce((a, b) => (b.p95 > a.p95 ? b : a))
  return { aim, measured: `worst ${worst.route}, p95 ${worst.p95} ms (${large.length} rows)`, verdict: large.every((r) => r.p95 < LARGE_P95_MS) ? 'MET' : 'MISSED' }
}

/**
 * From 1,000 to 1,000,000 tutors each search's cost grows no faster than what it finds. The
 * cost is the time per request at 10 clients (1 / req/s): steadier than a p50 of a few ms.
 */
function growthAims(rows: readonly Row[]): Judged[] {
  return SEARCH_ROUTES.map((route) => {
    const aim = `growth of search ${route}, ${count(SMALL)} to ${count(LARGE)} tutors: cost no faster than found`
    const at = (tutors: number) => rows.find((r) => r.database === AIM_DATABASE && r.tutors === tutors && r.route === route)
    const small = at(SMALL)
    const large = at(LARGE)
    if (!small || !large || !small.found || !large.found) return notMeasured(aim, `${AIM_DATABASE} at ${count(SMALL)} and ${count(LARGE)} tutors`)
    const cost = small.rps / large.rps
    const found = large.found / small.found
    return { aim, measured: `cost x${cost.toFixed(1)}, found x${found.toFixed(1)}`, verdict: cost <= found ? 'MET' : 'MISSED' }
  })
}

export function judgeAims(run: BenchRun): Judged[] {
  return [
    ...SEARCH_ROUTES.map((route) => routeAim(run.marketplace, route, SEARCH_AIM, 'search')),
    ...AVAILABILITY_ROUTES.map((route) => routeAim(run.marketplace, route, AVAILABILITY_AIM, 'availability')),
    bookingAim(run.booking),
    ...platformAims(run.platform),
    largeAim(run.marketplace),
    ...growthAims(run.marketplace),
  ]
}

export function printAims(run: BenchRun) {
  const judged = judgeAims(run)
  const width = Math.max(...judged.map((j) => j.aim.length)) + 2
  console.log(`\nthe aims, every figure from this run (${AIM_DATABASE} at ${count(AIM_TUTORS)} tutors, 10 clients, unless the aim says otherwise)`)
  for (const j of judged) console.log(`${pad(j.aim, width)}${pad(j.verdict, 14)}${j.measured}`)
  const tally = (v: Verdict) => judged.filter((j) => j.verdict === v).length
  console.log(`${tally('MET')} met, ${tally('MISSED')} missed, ${tally('not measured')} not measured`)
}
