import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { SearchSort, TutorSearchCriteria, TutorSearchHit, TutorSearchRepository } from '@tutoring/domain/search'
import { DISTANCE_BAND_MILES, type LessonTypeName, type PageRequest } from '@tutoring/domain/shared'
import type { Titled } from '@tutoring/domain/teaching'
import type { Database } from '../db/database'
import { prepare } from '../db/prepared-statements'

/** Miles in one degree of latitude, rounded down so the box is never too small (R = 3958.8 mi). */
const MILES_PER_DEGREE = 69

/**
 * Half the sides, in degrees, of a box holding every point within `miles` of a place at
 * `lat`: a degree of longitude is shortest on the box's edge nearer the pole. (No tutor lives
 * across the antimeridian: the service is for the UK.) `tutor_search_reach_cells` in SQL
 * (sql/search-keys.sql) computes the same box.
 */
export function boxAround(lat: number, miles: number): { latSpan: number; lngSpan: number } {
  const latSpan = miles / MILES_PER_DEGREE
  const poleward = Math.min(89, Math.abs(lat) + latSpan)
  return { latSpan, lngSpan: miles / (MILES_PER_DEGREE * Math.cos((poleward * Math.PI) / 180)) }
}

/**
 * A student's coordinate to a millionth of a degree (about 0.1 m): PostgreSQL refuses float8
 * arithmetic that underflows, so a coordinate like 5e-264 would fail the statement.
 */
const degrees = (x: number): number => Math.round(x * 1e6) / 1e6

/**
 * `distanceMiles(tutor, student)` of the domain in SQL, term for term (haversine, R = 3958.8),
 * from the tutor's public point (`tutor_search` keeps lat and lng rounded: sql/public-point.sql).
 * Null when the tutor has no location.
 */
const distanceSql = (studentLat: number, studentLng: number): RawBuilder<number | null> => {
  const [lat, lng] = [degrees(studentLat), degrees(studentLng)]
  return sql<number | null>`(
  2 * 3958.8 * asin(least(1, sqrt(
    power(sin(((${lat}::float8 - ts.lat) * pi() / 180) / 2), 2)
    + cos(ts.lat * pi() / 180) * cos(${lat}::float8 * pi() / 180) * power(sin(((${lng}::float8 - ts.lng) * pi() / 180) / 2), 2)
  )))
)`
}

/** Row of a lesson type in `tutor_search.schedule_mask`: bit `7 * row + day` (0 Sunday .. 6 Saturday). */
const LESSON_TYPE_ROW: Record<LessonTypeName, number> = { tutors_home: 0, students_home: 1, online: 2 }
const ALL_WEEKDAYS = [0, 1, 2, 3, 4, 5, 6]

/**
 * Rule 4 as bits of the tutor's `schedule_mask` (kept by triggers: a bit for each weekday and
 * lesson type that some schedule entry with a window offers): any of the requested weekday
 * (every weekday without a date) in the requested lesson type (any without one). Entry filters
 * (subject, level, board) do not count here, as in the domain: availability applies them.
 */
export function scheduleBits(weekday: number | undefined, lessonType: LessonTypeName | undefined): number {
  const days = weekday === undefined ? ALL_WEEKDAYS : [weekday]
  const rows = lessonType === undefined ? Object.values(LESSON_TYPE_ROW) : [LESSON_TYPE_ROW[lessonType]]
  let bits = 0
  for (const row of rows) for (const day of days) bits |= 1 << (7 * row + day)
  return bits
}

/** The `search_keys` element standing for the same question as `scheduleBits` (`tutor_search_schedule_keys` in sql/search-keys.sql). */
function scheduleKey(weekday: number | undefined, lessonType: LessonTypeName | undefined): number {
  if (weekday !== undefined && lessonType !== undefined) return -(1 + 7 * LESSON_TYPE_ROW[lessonType] + weekday)
  if (lessonType !== undefined) return -(100 + LESSON_TYPE_ROW[lessonType])
  if (weekday !== undefined) return -(200 + weekday)
  return -110
}

const inPersonPlace = (c: TutorSearchCriteria) => (c.studentLocation && c.lessonType !== undefined && c.lessonType !== 'online' ? c.studentLocation : undefined)

/**
 * Every tutor a search can find carries these in `search_keys`: the subject, the schedule key
 * and, in person, the grid cell of the student's place (its reach box touches that cell). One
 * GIN scan intersects them; the conditions below still decide, exactly.
 */
function searchKeys(c: TutorSearchCriteria): RawBuilder<unknown> {
  const keys: RawBuilder<unknown>[] = [sql`${scheduleKey(c.weekday, c.lessonType)}::int`]
  if (c.subjectId !== undefined) keys.push(sql`${c.subjectId}::int`)
  const place = inPersonPlace(c)
  if (place) keys.push(sql`tutor_search_cell(${degrees(place.lat)}::float8, ${degrees(place.lng)}::float8)`)
  return sql`ts.search_keys @> array[${sql.join(keys)}]::int[]`
}

/**
 * Rule 5 (the domain's `isOnHoliday`): not on holiday on the date, or today without one
 * (inclusive dates). `away` is the tutor's holidays as one datemultirange, on every search table
 * and in its indexes (sql/holidays.sql), so this is a test of the row already read, not a probe
 * of `holidays` per match.
 */
function notOnHoliday(c: TutorSearchCriteria): RawBuilder<unknown> {
  return sql`(ts.away is null or not ts.away @> ${c.date ?? c.today}::date)`
}

/**
 * Rules 1-6 of SPEC "A tutor appears in results only when" and CONTRACT §14's rule 8, as the
 * domain's `searchEligibility` (packages/domain/src/search/eligibility.ts) reads them, each
 * named below by the domain function it mirrors; rule 7 (`isOutsideWindow`, the date window)
 * is the use case's: it never asks for a date outside it. The columns read here are kept by
 * the triggers of sql/*.sql. search.properties.test.ts (packages/http) holds both sides equal.
 */
function eligibilityConditions(c: TutorSearchCriteria): RawBuilder<unknown>[] {
  const conditions: RawBuilder<unknown>[] = [
    // Rules 1-3 (`profileReasons`, `verificationReasons`, `isVisible`): profile complete, every
    // verification PASS, visible: `searchable` (sql/tutor-records.sql).
    sql`ts.searchable`,
    // Rule 8 (`isSubscriptionInactive`): a subscription trialing or active (sql/subscription.sql).
    sql`ts.subscribed`,
    searchKeys(c),
  ]
  // Rule 4 (`hasAvailability`): a schedule window on the weekday offering the lesson type
  // (sql/schedule-and-subjects.sql).
  conditions.push(sql`ts.schedule_mask & ${scheduleBits(c.weekday, c.lessonType)}::int <> 0`)
  conditions.push(notOnHoliday(c))
  // Rule 6 (`isOutOfTravelDistance`): an in-person lesson with the student's place needs the
  // tutor's public point within their own travel distance (the grid cell of searchKeys first,
  // then the exact distance).
  const place = inPersonPlace(c)
  if (place) conditions.push(sql`${distanceSql(place.lat, place.lng)} <= ts.travel_distance_miles`)
  return conditions
}

function filterConditions(c: TutorSearchCriteria): RawBuilder<unknown>[] {
  const conditions: RawBuilder<unknown>[] = []
  if (c.gender !== undefined) conditions.push(sql`ts.gender = ${c.gender}`)
  if (c.languageId !== undefined) conditions.push(sql`${c.languageId}::int = any(ts.language_ids)`)
  return conditions
}

/** The tutor's enabled teach matching the subject, level and board filters: the cheapest, then the oldest. */
function bestTeach(c: TutorSearchCriteria, tutorId: RawBuilder<unknown>): RawBuilder<unknown> {
  const conditions: RawBuilder<unknown>[] = [sql`t.tutor_id = ${tutorId}`, sql`t.enabled`, sql`t.deleted_at is null`]
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

/** The domain's `distanceBand` of a distance in miles: up to the next band, at least one band. */
const bandOfMiles = (miles: RawBuilder<number | null>): RawBuilder<number | null> =>
  sql<number | null>`greatest(${DISTANCE_BAND_MILES}::float8, ceil(${miles} / ${DISTANCE_BAND_MILES}::float8) * ${DISTANCE_BAND_MILES}::float8)`

/**
 * The band of the distance from the tutor's point. A tutor without a point has none (greatest
 * would turn null into a band); tested on the point, so the distance is an expression of the
 * row, not a subquery per match.
 */
const bandSql = (miles: RawBuilder<number | null>): RawBuilder<number | null> =>
  sql<number | null>`(case when ts.lat is null or ts.lng is null then null else ${bandOfMiles(miles)} end)`

/**
 * Column names of the page query: each sort ends on tutor_id so pages never overlap (distance:
 * by band, then tutor_id; rating: the domain's `compareByRating`, from the copies of
 * `tutor_ratings` that both search tables keep, sql/rating.sql).
 */
const ORDER: Record<SearchSort, RawBuilder<unknown>> = {
  distance: sql`distance asc nulls last, tutor_id asc`,
  rating: sql`overall_rating desc nulls last, review_count desc, tutor_id asc`,
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
      const query = pageQuery(criteria, page)
      // Prepared: planning was 1.3 ms of the broad search's 5.3 ms on PostgreSQL (bench/RESULTS.md).
      const rows = (await db.executeQuery(prepare(query.compile(db)))).rows
      if (rows.length > 0 || page.page === 1) return { items: rows.map(rowToHit), total: rows.length > 0 ? Number(rows[0]!.total) : 0 }
      // Past the last page the count has no row to ride on.
      const counted = await countQuery(criteria).execute(db)
      return { items: [], total: Number(counted.rows[0]?.n ?? 0) }
    },
  }
}

/**
 * Without level or board filters, a tutor has a teach to show exactly when `subject_ids` (the
 * subjects of their enabled live teaches, kept by triggers) holds the subject, or any subject:
 * then the teach is read for the page's rows only, unless the order is by its price.
 */
const teachAfterPage = (c: TutorSearchCriteria): boolean =>
  c.subjectLevelIds.length === 0 && c.examBoardIds.length === 0 && c.sort !== 'price_asc' && c.sort !== 'price_desc'

/**
 * The commonest search, a subject on a date online with no other filter, is answered from
 * `tutor_search_online` (sql/online-rows.sql): its rows are exactly the searchable,
 * subscribed tutors teaching the subject with an online window on the weekday (rules 1-4 and
 * 8), read from the index alone. Rule 5 (holidays) is checked as on the general path.
 */
function onlineOffer(c: TutorSearchCriteria): { subjectId: number; weekday: number } | undefined {
  if (c.lessonType !== 'online' || c.subjectId === undefined || c.weekday === undefined) return undefined
  if (c.gender !== undefined || c.languageId !== undefined || !teachAfterPage(c)) return undefined
  return { subjectId: c.subjectId, weekday: c.weekday }
}

/**
 * A subject in person at the student's place, with no other filter, is answered from
 * `tutor_search_in_person` (sql/in-person-rows.sql): its rows are exactly the searchable,
 * subscribed tutors (rules 1-3 and 8) with a location teaching the subject, and its GiST index
 * finds those whose travel box holds the place, with every column read here, so no heap page of
 * `tutor_search` is visited. Rules 4-6 are checked on those rows as on the general path.
 */
function inPersonOffer(c: TutorSearchCriteria): { subjectId: number; place: { lat: number; lng: number } } | undefined {
  const place = inPersonPlace(c)
  if (!place || c.subjectId === undefined) return undefined
  if (c.gender !== undefined || c.languageId !== undefined || !teachAfterPage(c)) return undefined
  return { subjectId: c.subjectId, place }
}

function matching(criteria: TutorSearchCriteria): RawBuilder<unknown> {
  const offer = onlineOffer(criteria)
  if (offer) {
    return sql`from tutor_search_online ts where ${onlineRows(criteria, offer)}`
  }
  const inPerson = inPersonOffer(criteria)
  if (inPerson) {
    const { subjectId, place } = inPerson
    // `offset 0` keeps the subquery apart, so each candidate's distance is computed once for
    // both the travel test and the band; inlined, PostgreSQL computed it twice (about 1.5 ms of
    // the backend's 15 ms CPU per search at 1,000,000 tutors, RESULTS.md). Every row here has
    // a point, so the band needs no null case.
    return sql`from (
        select ts.tutor_id, ts.tutoring_experience_months, ts.overall_rating, ts.review_count, ts.travel_distance_miles,
          ${distanceSql(place.lat, place.lng)} as miles
        from tutor_search_in_person ts
        where ts.reach @> tutor_search_place_box(${subjectId}::int, ${degrees(place.lat)}::float8, ${degrees(place.lng)}::float8)
          and ts.subject_id = ${subjectId}::int
          and ts.schedule_mask & ${scheduleBits(criteria.weekday, criteria.lessonType)}::int <> 0
          and ${notOnHoliday(criteria)}
        offset 0
      ) ts
      where ts.miles <= ts.travel_distance_miles`
  }
  const where = [...eligibilityConditions(criteria), ...filterConditions(criteria)]
  if (!teachAfterPage(criteria)) {
    return sql`from tutor_search ts
      cross join lateral ${bestTeach(criteria, sql`ts.tutor_id`)} bt
      where ${sql.join(where, sql` and `)}`
  }
  where.push(criteria.subjectId === undefined ? sql`cardinality(ts.subject_ids) > 0` : sql`ts.subject_ids @> ${intArray([criteria.subjectId])}`)
  return sql`from tutor_search ts where ${sql.join(where, sql` and `)}`
}

/** The online rows of the subject and weekday, not on holiday on the date (`ts`, after `where`). */
const onlineRows = (c: TutorSearchCriteria, offer: { subjectId: number; weekday: number }): RawBuilder<unknown> =>
  sql`ts.subject_id = ${offer.subjectId}::int and ts.weekday = ${offer.weekday}::smallint and ${notOnHoliday(c)}`

/**
 * The online path's total without reading its matches: the kept count of the subject's rows on
 * the weekday, minus those of tutors away on the date (search/sql/online-count.sql). Both in the
 * page's statement, so one snapshot sees the rows, the count and the holidays alike. Exact: every
 * row is counted once, and a row away on the date has exactly one range holding it.
 */
function onlineTotal(c: TutorSearchCriteria, offer: { subjectId: number; weekday: number }): RawBuilder<number | string> {
  const [subject, weekday] = [sql`${offer.subjectId}::int`, sql`${offer.weekday}::smallint`]
  return sql<number | string>`(
    (select coalesce(sum(k.n), 0) from tutor_search_online_counts k where k.subject_id = ${subject} and k.weekday = ${weekday})
    - (select count(*) from tutor_search_online_away a where a.subject_id = ${subject} and a.weekday = ${weekday} and a.during @> ${c.date ?? c.today}::date)
  )::bigint`
}

/** A row's public point in `tutor_search_online_near`, as the index computes it (sql/online-rows.sql). */
const NEAR_POINT = sql`point(ts.lng + 1000 * ts.subject_id, ts.lat + 1000 * ts.weekday)`

/**
 * `sort=distance` online from the student's place, without a distance for every match (38,664
 * per subject and weekday at 1,000,000 tutors). The first `n` rows of the page's pages nearest
 * the place in `tutor_search_online_near` bound them: n tutors lie within the farthest of those
 * rows' bands, so each of the first n in (band, tutor_id) order lies within it too, and inside
 * the box `boxAround` draws for that many miles (`tutor_search_online_box`). The box finds
 * them all, and their exact bands order them. Tutors without a point come last, by tutor_id.
 * Which rows are nearest in the index (degrees, not miles) only sets the bound, never the order.
 */
function nearestOnline(c: TutorSearchCriteria, offer: { subjectId: number; weekday: number }, place: { lat: number; lng: number }, page: PageRequest) {
  const n = page.page * page.perPage
  const [subject, weekday, lat, lng] = [sql`${offer.subjectId}::int`, sql`${offer.weekday}::smallint`, sql`${degrees(place.lat)}::float8`, sql`${degrees(place.lng)}::float8`]
  const band = bandSql(distanceSql(place.lat, place.lng))
  const placed = sql`ts.lat is not null and ts.lng is not null and ${onlineRows(c, offer)}`
  return sql`select * from (
      (select ts.tutor_id, ts.tutoring_experience_months, ts.overall_rating, ts.review_count, ${band} as distance
       from tutor_search_online ts
       where ${NEAR_POINT} <@ tutor_search_online_box(${subject}, ${weekday}, ${lat}, ${lng}, (
           select max(near.distance) from (
             select ${band} as distance from tutor_search_online ts
             where ${NEAR_POINT} <@ tutor_search_online_region(${subject}, ${weekday}) and ${placed}
             order by ${NEAR_POINT} <-> tutor_search_online_point(${subject}, ${weekday}, ${lat}, ${lng})
             limit ${n}
           ) near))
         and ${placed})
      union all
      (select ts.tutor_id, ts.tutoring_experience_months, ts.overall_rating, ts.review_count, null::float8 as distance
       from tutor_search_online ts
       where (ts.lat is null or ts.lng is null) and ${onlineRows(c, offer)}
       order by ts.tutor_id
       limit ${n})
    ) found
    order by ${ORDER.distance}
    limit ${page.perPage} offset ${(page.page - 1) * page.perPage}`
}

/**
 * The page, its teaches and the total in one statement. On the online path the total is the
 * kept count (`onlineTotal`), not a window over the page's rows: the window made the planner
 * sort every match before the limit, where alone the page is a top-N heapsort (1,000,000
 * tutors, broad online search by distance: 40 -> 26 ms, RESULTS.md). Elsewhere finding the
 * matches is the cost (the bounding box, then each tutor's travel radius), so they are found
 * once and counted by the window.
 */
function pageQuery(criteria: TutorSearchCriteria, page: PageRequest) {
  const place = criteria.studentLocation
  const distance = inPersonOffer(criteria) ? bandOfMiles(sql`ts.miles`) : place ? bandSql(distanceSql(place.lat, place.lng)) : sql`null::float8`
  const levelFilter = criteria.subjectLevelIds.length > 0 ? sql`and x.subject_level_id = any(${intArray(criteria.subjectLevelIds)})` : sql``
  const later = teachAfterPage(criteria)
  const offer = onlineOffer(criteria)
  const nearest = offer && place && criteria.sort === 'distance' ? nearestOnline(criteria, offer, place, page) : undefined
  return sql<HitRow>`
    with page as (
      ${nearest ?? sql`select ts.tutor_id, ts.tutoring_experience_months,
        ts.overall_rating, ts.review_count,
        ${later ? sql`` : sql`bt.id as teach_id, bt.subject_id, bt.hourly_rate_pence,`}
        ${distance} as distance${offer ? sql`` : sql`, count(*) over () as total`}
      ${matching(criteria)}
      order by ${ORDER[criteria.sort]}
      limit ${page.perPage} offset ${(page.page - 1) * page.perPage}`}
    ), hits as (
      ${later ? sql`select page.*, bt.id as teach_id, bt.subject_id, bt.hourly_rate_pence from page cross join lateral ${bestTeach(criteria, sql`page.tutor_id`)} bt` : sql`select * from page`}
    )
    select hits.*, ${offer ? sql`${onlineTotal(criteria, offer)} as total,` : sql``} u.firstname, u.lastname, s.title as subject_title,
      (select json_build_object('id', l.id, 'title', l.title)
         from teach_subject_levels x join subject_levels l on l.id = x.subject_level_id
         where x.teach_id = hits.teach_id ${levelFilter}
         order by l.position, l.id limit 1) as level,
      coalesce((select json_agg(json_build_object('id', b.id, 'title', b.title) order by b.id)
         from teach_exam_boards x join exam_boards b on b.id = x.exam_board_id
         where x.teach_id = hits.teach_id), '[]'::json) as boards
    from hits
    join users u on u.id = hits.tutor_id
    join subjects s on s.id = hits.subject_id
    order by ${ORDER[criteria.sort]}
  `
}

function countQuery(criteria: TutorSearchCriteria) {
  const offer = onlineOffer(criteria)
  if (offer) return sql<{ n: number | string }>`select ${onlineTotal(criteria, offer)} as n`
  return sql<{ n: number | string }>`select count(*) as n ${matching(criteria)}`
}

/** The page statement as search would run it, for EXPLAIN in tests. */
export function searchStatementForExplain(criteria: TutorSearchCriteria, page: PageRequest) {
  return pageQuery(criteria, page)
}
