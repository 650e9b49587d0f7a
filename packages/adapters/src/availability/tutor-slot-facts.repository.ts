import { sql, type Expression, type Kysely } from 'kysely'
import type { SlotFactsRange, TutorLesson, TutorSlotFacts, TutorSlotFactsReader } from '@tutoring/domain/availability'
import { dayNameOf, type DaySchedule, type TutorHoliday, type TutorLocationRecord } from '@tutoring/domain/schedule'
import { lessonTypeName, type LessonTypeName } from '@tutoring/domain/shared'
import type { Database } from '../db/database'
import { bookableTeachQuery, rowToBookableTeach, type BookableTeachRow } from './bookable-teach.repository'
import { compiledOnce } from '../db/prepared-statements'

/** CANCELLED 0 frees its time; ACTIVE 1 and RESCHEDULE 2 hold it. */
const CANCELLED = 0

/**
 * The four parts as JSON, as the drivers hand json back (parsed): `time` as `HH:MM:SS`,
 * `date` as `YYYY-MM-DD` (JSON dates are ISO whatever the session's DateStyle), instants as
 * epoch milliseconds (free of the session's TimeZone), bigint and double as JSON numbers.
 */
type ScheduleJson = {
  id: number
  tutor_id: number
  day: number
  lesson_types: string[]
  buffer_minutes: number
  subject_id: number | null
  subject_level_id: number | null
  exam_board_id: number | null
  slots: Array<{ from: string; to: string }>
}
type HolidayJson = { id: number; tutor_id: number; start_date: string; end_date: string }
type LocationJson = { id: number; tutor_id: number; postcode: string; outcode: string; lat: number; lng: number; travel_distance_miles: number }
type LessonJson = { id: number; start_ms: number; finish_ms: number; lesson_type: number; lat: unknown; lng: unknown }
type FactsRow = { schedule: ScheduleJson[]; holidays: HolidayJson[]; location: LocationJson | null; lessons: LessonJson[] }

/** `SlotFactsRange` as places in a statement compiled once. */
type RangeExpressions = { from: Expression<Date>; to: Expression<Date>; excludeLessonId?: Expression<number> }
type RangeValues = { from: Date; to: Date; excludeLessonId: number | undefined }

/**
 * The four parts for the tutor `tutorId` names (a parameter, or a column of the enclosing
 * query), each a scalar subquery on its own index. Orders are those of the readers the
 * schedule pages use: entries by day, first window, id; holidays by start date, id.
 */
function factsColumns(tutorId: Expression<number>, range: RangeExpressions) {
  const notExcluded = range.excludeLessonId === undefined ? sql`` : sql`and l.id <> ${range.excludeLessonId}`
  return [
    sql<ScheduleJson[]>`coalesce((
      select json_agg(json_build_object(
        'id', d.id, 'tutor_id', d.tutor_id, 'day', d.day, 'lesson_types', d.lesson_types, 'buffer_minutes', d.buffer_minutes,
        'subject_id', d.subject_id, 'subject_level_id', d.subject_level_id, 'exam_board_id', d.exam_board_id, 'slots', w.slots
      ) order by d.day, w.first_start, d.id)
      from day_availabilities d
      cross join lateral (
        select min(s.starts_at) as first_start,
               coalesce(json_agg(json_build_object('from', s.starts_at, 'to', s.ends_at) order by s.starts_at, s.id), '[]') as slots
        from day_availability_slots s where s.day_availability_id = d.id
      ) w
      where d.tutor_id = ${tutorId}
    ), '[]')`.as('schedule'),
    sql<HolidayJson[]>`coalesce((
      select json_agg(json_build_object('id', h.id, 'tutor_id', h.tutor_id, 'start_date', h.start_date, 'end_date', h.end_date) order by h.start_date, h.id)
      from holidays h where h.tutor_id = ${tutorId}
    ), '[]')`.as('holidays'),
    sql<LocationJson | null>`(
      select json_build_object(
        'id', x.id, 'tutor_id', x.tutor_id, 'postcode', x.postcode, 'outcode', x.outcode,
        'lat', x.lat, 'lng', x.lng, 'travel_distance_miles', x.travel_distance_miles
      )
      from locations x where x.tutor_id = ${tutorId}
    )`.as('location'),
    // The range test is spelled as the double-booking constraint's own index expression, so
    // its GiST index answers tutor and time range together rather than the tutor alone.
    sql<LessonJson[]>`coalesce((
      select json_agg(json_build_object(
        'id', l.id, 'start_ms', extract(epoch from l.start_at) * 1000, 'finish_ms', extract(epoch from l.finish_at) * 1000,
        'lesson_type', l.lesson_type, 'lat', l.address -> 'lat', 'lng', l.address -> 'lng'
      ) order by l.start_at, l.id)
      from lessons l
      where l.tutor_id = ${tutorId} and l.state <> ${sql.lit(CANCELLED)}
        and tstzrange(l.start_at, l.finish_at, '[)') && tstzrange(${range.from}, ${range.to}, '[)')
        ${notExcluded}
    ), '[]')`.as('lessons'),
  ] as const
}

/** `09:00:00` -> `09:00` (and `24:00:00` -> `24:00`). */
const hhmm = (time: string): string => time.slice(0, 5)

const jsonToDaySchedule = (entry: ScheduleJson): DaySchedule => ({
  id: entry.id,
  tutorId: entry.tutor_id,
  day: dayNameOf(entry.day),
  slots: entry.slots.map((s) => ({ from: hhmm(s.from), to: hhmm(s.to) })),
  lessonTypes: entry.lesson_types as LessonTypeName[],
  bufferMinutes: entry.buffer_minutes,
  subjectId: entry.subject_id,
  subjectLevelId: entry.subject_level_id,
  examBoardId: entry.exam_board_id,
})

const jsonToHoliday = (h: HolidayJson): TutorHoliday => ({ id: h.id, tutorId: h.tutor_id, startDate: h.start_date, endDate: h.end_date })

const jsonToLocation = (x: LocationJson): TutorLocationRecord => ({
  id: x.id,
  tutorId: x.tutor_id,
  postcode: x.postcode,
  outcode: x.outcode,
  lat: x.lat,
  lng: x.lng,
  travelDistanceMiles: x.travel_distance_miles,
})

const jsonToTutorLesson = (l: LessonJson): TutorLesson => {
  const type = lessonTypeName(l.lesson_type)
  if (!type) throw new RangeError(`lesson ${l.id} has an unknown lesson_type ${l.lesson_type}`)
  return {
    id: l.id,
    start: new Date(l.start_ms),
    finish: new Date(l.finish_ms),
    lessonType: type,
    addressPoint: typeof l.lat === 'number' && typeof l.lng === 'number' ? { lat: l.lat, lng: l.lng } : null,
  }
}

const rowToFacts = (row: FactsRow): TutorSlotFacts => ({
  schedule: row.schedule.map(jsonToDaySchedule),
  holidays: row.holidays.map(jsonToHoliday),
  location: row.location ? jsonToLocation(row.location) : undefined,
  lessons: row.lessons.map(jsonToTutorLesson),
})

/** The range's places; the lesson left out only in the statement that leaves one out. */
const rangePlaces = (value: <K extends keyof RangeValues>(name: K) => Expression<RangeValues[K]>, excluding: boolean): RangeExpressions => ({
  from: value('from'),
  to: value('to'),
  excludeLessonId: excluding ? (value('excludeLessonId') as Expression<number>) : undefined,
})

const rangeValues = (range: SlotFactsRange): RangeValues => ({ from: range.from, to: range.to, excludeLessonId: range.excludeLessonId })

/** Each statement in two shapes: index 1 leaves a lesson out (rescheduling it). */
const forTutorStatements = [false, true].map((excluding) =>
  compiledOnce<RangeValues & { tutorId: number }, FactsRow>((db, value) => db.selectNoFrom(factsColumns(value('tutorId'), rangePlaces(value, excluding))).compile()),
)
const forTeachStatements = [false, true].map((excluding) =>
  compiledOnce<RangeValues & { teachId: number }, FactsRow & BookableTeachRow>((db, value) =>
    bookableTeachQuery(db, value('teachId')).select(factsColumns(sql.ref<number>('t.tutor_id'), rangePlaces(value, excluding))).compile(),
  ),
)
const shape = (range: SlotFactsRange) => (range.excludeLessonId === undefined ? 0 : 1)

/**
 * Read-only: what availability and booking's slot check read of a tutor, each answer one
 * statement, compiled once and prepared: planning it took about as long as running it.
 */
export function tutorSlotFactsRepository(db: Kysely<Database>): TutorSlotFactsReader {
  return {
    async forTutor(tutorId, range) {
      const { rows } = await db.executeQuery(forTutorStatements[shape(range)]!(db, { ...rangeValues(range), tutorId }))
      return rowToFacts(rows[0]!)
    },
    async forTeach(teachId, range) {
      const { rows } = await db.executeQuery(forTeachStatements[shape(range)]!(db, { ...rangeValues(range), teachId }))
      const row = rows[0]
      return row && { ...rowToBookableTeach(row), facts: rowToFacts(row) }
    },
  }
}
