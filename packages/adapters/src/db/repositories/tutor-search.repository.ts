import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { PageRequest, SearchSort, Titled, TutorSearchCriteria, TutorSearchHit, TutorSearchRepository } from '@tutoring/domain'
import type { Database } from '../database'

/** Miles in one degree of latitude, rounded down so the box is never too small (R = 3958.8 mi). */
const MILES_PER_DEGREE = 69

/**
 * Half the sides, in degrees, of a box holding every point within `miles` of a place at
 * `lat`: a degree of longitude is shortest on the box's edge nearer the pole. (No tutor lives
 * across the antimeridian: the service is for the UK.)
 */
export function boxAround(lat: number, miles: number): { latSpan: number; lngSpan: number } {
  const latSpan = miles / MILES_PER_DEGREE
  const poleward = Math.min(89, Math.abs(lat) + latSpan)
  return { latSpan, lngSpan: miles / (MILES_PER_DEGREE * Math.cos((poleward * Math.PI) / 180)) }
}

/**
 * `distanceMiles(tutor, student)` of the domain in SQL, term for term (haversine, R = 3958.8).
 * Null when the tutor has no location.
 */
const distanceSql = (lat: number, lng: number): RawBuilder<number | null> => sql<number | null>`(
  2 * 3958.8 * asin(least(1, sqrt(
    power(sin(((${lat}::float8 - ts.lat) * pi() / 180) / 2), 2)
    + cos(ts.lat * pi() / 180) * cos(${lat}::float8 * pi() / 180) * power(sin(((${lng}::float8 - ts.lng) * pi() / 180) / 2), 2)
  )))
)`

/**
 * Rules 1-3, 5 and 6 of SPEC "A tutor appears in results only when", as `searchEligibility`
 * reads them; rule 4 is `scheduleProbe`, and rule 7 (the date window) is the use case's: it
 * never asks for a date outside it.
 */
function eligibilityConditions(c: TutorSearchCriteria, reachMiles: number): RawBuilder<unknown>[] {
  // Rules 1-3: profile complete, every verification PASS, visible; kept by triggers.
  const conditions: RawBuilder<unknown>[] = [sql`ts.searchable`]
  // Rule 5: not on holiday on the date, or today without one (inclusive dates).
  const date = c.date ?? c.today
  conditions.push(sql`not exists (
    select 1 from holidays h where h.tutor_id = ts.tutor_id and h.start_date <= ${date}::date and h.end_date >= ${date}::date
  )`)
  // Rule 6: an in-person lesson with the student's place needs the tutor within their own
  // travel distance. A box around the student as wide as the longest travel distance of
  // any searchable tutor (indexed lat, lng) first, then the exact distance.
  const place = c.studentLocation
  if (place && c.lessonType !== undefined && c.lessonType !== 'online') {
    const { latSpan, lngSpan } = boxAround(place.lat, reachMiles)
    conditions.push(sql`ts.lat between ${place.lat - latSpan}::float8 and ${place.lat + latSpan}::float8`)
    conditions.push(sql`ts.lng between ${place.lng - lngSpan}::float8 and ${place.lng + lngSpan}::float8`)
    conditions.push(sql`${distanceSql(place.lat, place.lng)} <= ts.travel_distance_miles`)
  }
  return conditions
}

/**
 * Rule 4: a schedule entry with a window on the date's weekday (any without a date), offering
 * the lesson type when one is asked for. Entry filters (subject, level, board) do not count
 * here, as in the domain: availability applies them. A lateral `limit 1` rather than `exists`,
 * so each candidate is one probe of the (tutor_id, day) index instead of a hash of every window.
 */
function scheduleProbe(c: TutorSearchCriteria): RawBuilder<unknown> {
  const onDay = c.weekday === undefined ? sql`` : sql`and w.day = ${c.weekday}`
  const ofType = c.lessonType === undefined ? sql`` : sql`and ${c.lessonType}::text = any(d.lesson_types)`
  return sql`(
    select 1 as found from day_availability_slots w join day_availabilities d on d.id = w.day_availability_id
    where w.tutor_id = ts.tutor_id ${onDay} ${ofType}
    limit 1
  )`
}

function filterConditions(c: TutorSearchCriteria): RawBuilder<unknown>[] {
  const conditions: RawBuilder<unknown>[] = []
  if (c.gender !== undefined) conditions.push(sql`ts.gender = ${c.gender}`)
  if (c.languageId !== undefined) conditions.push(sql`${c.languageId}::int = any(ts.language_ids)`)
  return conditions
}

/** The tutor's enabled teach matching the subject, level and board filters: the cheapest, then the oldest. */
function bestTeach(c: TutorSearchCriteria): RawBuilder<unknown> {
  const conditions: RawBuilder<unknown>[] = [sql`t.tutor_id = ts.tutor_id`, sql`t.enabled`, sql`t.deleted_at is null`]
  if (c.subjectId !== undefined) conditions.push(sql`t.subject_id = ${c.subjectId}`)
  if (c.subjectLevelIds.length > 0) {
    conditions.push(sql`exists (select 1 from teach_subject_levels x where x.teach_id = t.id and x.subject_level_id = any(${intArray(c.subjectLevelIds)}))`)
  }
  if (c.examBoardIds.length > 0) {
    conditions.push(sql`exists (select 1 from teach_exam_boards x where x.teach_id = t.id and x.exam_board_id = any(${intArray(c.examBoardIds)}))`)
  }
  return sql`(
    select t.id, t.subject_id, t.hourly_rate_pence from teaches t
    where ${sql.join(conditions, sql` and `)}
    order by t.hourly_rate_pence, t.id
    limit 1
  )`
}

/** An int[] parameter as a literal both drivers read the same way. */
const intArray = (ids: readonly number[]): RawBuilder<number[]> => sql<number[]>`${`{${ids.map((id) => Math.trunc(id)).join(',')}}`}::int[]`

/** Column names of the page query: each sort ends on tutor_id so pages never overlap. */
const ORDER: Record<SearchSort, RawBuilder<unknown>> = {
  distance: sql`distance asc nulls last, tutor_id asc`,
  rating: sql`overall_rating desc nulls last, tutor_id asc`,
  price_asc: sql`hourly_rate_pence asc, tutor_id asc`,
  price_desc: sql`hourly_rate_pence desc, tutor_id asc`,
}

type HitRow = {
  tutor_id: number
  firstname: string
  lastname: string
  tutoring_experience_months: number | null
  distance: number | null
  teach_id: number
  subject_id: number
  subject_title: string
  hourly_rate_pence: number
  level: Titled | null
  boards: Titled[]
  total: number | string
}

const rowToHit = (row: HitRow): TutorSearchHit => ({
  tutorId: Number(row.tutor_id),
  firstname: row.firstname,
  lastname: row.lastname,
  tutoringExperienceMonths: row.tutoring_experience_months,
  distanceMiles: row.distance === null ? null : Number(row.distance),
  teach: {
    id: Number(row.teach_id),
    subject: { id: row.subject_id, title: row.subject_title },
    subjectLevel: row.level,
    examBoards: row.boards,
    hourlyRatePence: row.hourly_rate_pence,
  },
})

/** Search runs in the database: one statement for the page and its total, no rows looped in Node. */
export function tutorSearchRepository(db: Kysely<Database>): TutorSearchRepository {
  return {
    async search(criteria, page) {
      const reach = await reachMiles(db, criteria)
      const query = pageQuery(criteria, page, reach)
      const rows = (await query.execute(db)).rows
      if (rows.length > 0 || page.page === 1) return { items: rows.map(rowToHit), total: rows.length > 0 ? Number(rows[0]!.total) : 0 }
      // Past the last page the window count has no row to ride on.
      const counted = await countQuery(criteria, reach).execute(db)
      return { items: [], total: Number(counted.rows[0]?.n ?? 0) }
    },
  }
}

/**
 * The longest travel distance of any searchable tutor: the box's half-size for rule 6. Read
 * per search (a backward scan of one index), never cached, so a tutor who just widened their
 * reach is not boxed out.
 */
async function reachMiles(db: Kysely<Database>, criteria: TutorSearchCriteria): Promise<number> {
  if (!criteria.studentLocation || criteria.lessonType === undefined || criteria.lessonType === 'online') return 0
  // `where searchable` as a literal, so the partial index on travel_distance_miles serves it.
  const result = await sql<{ miles: number | null }>`select max(travel_distance_miles) as miles from tutor_search where searchable`.execute(db)
  return Number(result.rows[0]?.miles ?? 0)
}

function matching(criteria: TutorSearchCriteria, reach: number): RawBuilder<unknown> {
  const where = [...eligibilityConditions(criteria, reach), ...filterConditions(criteria)]
  return sql`from tutor_search ts
    cross join lateral ${scheduleProbe(criteria)} schedule
    cross join lateral ${bestTeach(criteria)} bt
    where ${sql.join(where, sql` and `)}`
}

function pageQuery(criteria: TutorSearchCriteria, page: PageRequest, reach: number) {
  const place = criteria.studentLocation
  const distance = place ? distanceSql(place.lat, place.lng) : sql`null::float8`
  const levelFilter = criteria.subjectLevelIds.length > 0 ? sql`and x.subject_level_id = any(${intArray(criteria.subjectLevelIds)})` : sql``
  return sql<HitRow>`
    with page as (
      select ts.tutor_id, ts.tutoring_experience_months, ts.overall_rating,
        bt.id as teach_id, bt.subject_id, bt.hourly_rate_pence,
        ${distance} as distance,
        count(*) over () as total
      ${matching(criteria, reach)}
      order by ${ORDER[criteria.sort]}
      limit ${page.perPage} offset ${(page.page - 1) * page.perPage}
    )
    select page.*, u.firstname, u.lastname, s.title as subject_title,
      (select json_build_object('id', l.id, 'title', l.title)
         from teach_subject_levels x join subject_levels l on l.id = x.subject_level_id
         where x.teach_id = page.teach_id ${levelFilter}
         order by l.position, l.id limit 1) as level,
      coalesce((select json_agg(json_build_object('id', b.id, 'title', b.title) order by b.id)
         from teach_exam_boards x join exam_boards b on b.id = x.exam_board_id
         where x.teach_id = page.teach_id), '[]'::json) as boards
    from page
    join users u on u.id = page.tutor_id
    join subjects s on s.id = page.subject_id
    order by ${ORDER[criteria.sort]}
  `
}

function countQuery(criteria: TutorSearchCriteria, reach: number) {
  return sql<{ n: number | string }>`select count(*) as n ${matching(criteria, reach)}`
}

/** The page statement as search would run it, for EXPLAIN in tests. */
export async function searchStatementForExplain(db: Kysely<Database>, criteria: TutorSearchCriteria, page: PageRequest) {
  return pageQuery(criteria, page, await reachMiles(db, criteria))
}
