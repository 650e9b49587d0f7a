import { ResultAsync, err, ok, type Result } from 'neverthrow'
import type { TutorLocationRecord } from '../schedule'
import {
  BOOKING_WINDOW_DAYS,
  DAY_MS,
  DEFAULT_TUTOR_TIME_ZONE,
  dayNumberOf,
  distanceMiles,
  isInPerson,
  isValidTimeZone,
  locatePostcode,
  notFound,
  parsePostcode,
  validationFailed,
  type FieldErrors,
  type GeoPoint,
  type IsoDate,
  type LessonTypeName,
  type NotFound,
  type ParsedPostcode,
  type Pence,
  type ValidationFailed,
} from '../shared'
import type { Teach } from '../teaching'
import type { BookedLesson, BusyInterval } from './busy'
import type { AvailabilityInput } from './compute-availability'
import type { AvailabilityDeps, TutorLesson } from './ports'
import { validateAvailabilityRequest } from './request'

/**
 * What a client asks availability (or booking) about. Field errors are named after the wire
 * parameters (`post_code`, `subject_level_id`, ...).
 */
export type AvailabilityQuery = {
  teachId: number
  /** A date in the client's offset; without it the whole 14-day window. */
  date?: IsoDate
  durationMinutes?: number
  lessonType?: LessonTypeName
  /** The student's place as a postcode (geocoded), or as coordinates (a booking's address). */
  studentPostcode?: string
  studentPoint?: GeoPoint
  utcOffsetMinutes?: number
  subjectLevelId?: number
  examBoardId?: number
  /** A lesson to leave out of the clashes (rescheduling that lesson). */
  excludeLessonId?: number
}

/**
 * An `AvailabilityInput` ready for `computeAvailability` / `isSlotAvailable`, with the teach
 * and tutor facts a caller prices or books with. `place` is where the requested lesson would
 * happen (null online, without a lesson type, or when unknown); `studentPoint` is the
 * student's geocoded place, if one was given.
 */
export type LoadedAvailability = AvailabilityInput & {
  teach: Teach
  tutorId: number
  hourlyRatePence: Pence
  timeZone: string
  place: GeoPoint | null
  studentPoint: GeoPoint | null
}

export type LoadAvailabilityError = NotFound | ValidationFailed

/** Lessons this far either side of the requested date (or window) can still clash through buffer and travel. */
const MARGIN_DAYS = 2

const pointKey = (p: GeoPoint): string => `${p.lat.toFixed(6)},${p.lng.toFixed(6)}`

/** Checks on the query that need no database. */
function checkQuery(deps: Pick<AvailabilityDeps, 'postcodes'>, query: AvailabilityQuery): Result<ParsedPostcode | undefined, ValidationFailed> {
  const errors: FieldErrors = {}
  const base = validateAvailabilityRequest({
    date: query.date,
    durationMinutes: query.durationMinutes,
    utcOffsetMinutes: query.utcOffsetMinutes,
  })
  if (base.isErr()) Object.assign(errors, base.error.errors)
  let postcode: ParsedPostcode | undefined
  if (query.studentPostcode !== undefined) {
    const parsed = parsePostcode(deps.postcodes, query.studentPostcode, 'post_code')
    if (parsed.isOk()) postcode = parsed.value
    else Object.assign(errors, parsed.error.errors)
  }
  if (query.lessonType === 'students_home' && query.studentPostcode === undefined && query.studentPoint === undefined) {
    errors.post_code = ["is required for a lesson at the student's home"]
  }
  return Object.keys(errors).length > 0 ? err(validationFailed(errors)) : ok(postcode)
}

function checkTeachFilters(teach: Teach, query: AvailabilityQuery): Result<void, ValidationFailed> {
  const errors: FieldErrors = {}
  if (query.subjectLevelId !== undefined && !teach.subjectLevelIds.includes(query.subjectLevelId)) {
    errors.subject_level_id = ['is not a level this teach covers']
  }
  if (query.examBoardId !== undefined && !teach.examBoardIds.includes(query.examBoardId)) {
    errors.exam_board_id = ['is not an exam board this teach covers']
  }
  return Object.keys(errors).length > 0 ? err(validationFailed(errors)) : ok(undefined)
}

/** The instants whose lessons and events can matter to the answer. */
function loadingRange(query: AvailabilityQuery, now: Date): { from: Date; to: Date } {
  if (query.date !== undefined) {
    const day = dayNumberOf(query.date)
    return { from: new Date((day - MARGIN_DAYS) * DAY_MS), to: new Date((day + 1 + MARGIN_DAYS) * DAY_MS) }
  }
  return {
    from: new Date(now.getTime() - MARGIN_DAYS * DAY_MS),
    to: new Date(now.getTime() + (BOOKING_WINDOW_DAYS + 1 + MARGIN_DAYS) * DAY_MS),
  }
}

/** Where a booked lesson takes place: the tutor's base, the stored address, or nowhere (online). */
function placeOfLesson(lesson: TutorLesson, location: TutorLocationRecord | undefined): GeoPoint | null {
  if (lesson.lessonType === 'tutors_home') return location ? { lat: location.lat, lng: location.lng } : null
  if (lesson.lessonType === 'students_home') return lesson.addressPoint
  return null
}

/**
 * Travel minutes for every in-person lesson, to and from the requested place: one travel call
 * for all distinct places. A lesson at the requested place, or at an unknown place, needs none.
 */
async function withTravel(
  deps: Pick<AvailabilityDeps, 'travel'>,
  lessons: readonly TutorLesson[],
  location: TutorLocationRecord | undefined,
  place: GeoPoint | null,
): Promise<BookedLesson[]> {
  const places = lessons.map((lesson) => placeOfLesson(lesson, location))
  const distinct = new Map<string, GeoPoint>()
  if (place) {
    for (const p of places) if (p && pointKey(p) !== pointKey(place)) distinct.set(pointKey(p), p)
  }
  const keys = [...distinct.keys()]
  const minutes = new Map<string, { to: number; from: number }>()
  if (place && keys.length > 0) {
    const answer = await deps.travel.between(place, [...distinct.values()])
    keys.forEach((key, i) => minutes.set(key, { to: answer.to[i] ?? 0, from: answer.from[i] ?? 0 }))
  }
  return lessons.map((lesson, i) => {
    const p = places[i]
    const travel = p ? minutes.get(pointKey(p)) : undefined
    return {
      start: lesson.start,
      finish: lesson.finish,
      inPerson: isInPerson(lesson.lessonType),
      // Before the booked lesson the tutor comes from the requested place; after it, goes back there.
      travelBeforeMinutes: travel?.to ?? 0,
      travelAfterMinutes: travel?.from ?? 0,
    }
  })
}

/**
 * Reads, through ports, everything availability needs about one teach for one request: the
 * tutor's weekly schedule, holidays, zone, location, live lessons (with travel to and from the
 * requested place), external calendar busy times, and whether the student lies within the
 * tutor's travel distance. A fixed number of reads whatever the number of lessons.
 *
 * Errors: 422 field errors for the query (`date`, `duration`, `utc_offset`, `post_code`: malformed,
 * unknown, or missing for students_home; `subject_level_id`/`exam_board_id` not of this teach),
 * 404 for a teach that is deleted, disabled or of a deleted tutor.
 */
export function loadAvailabilityInput(
  deps: AvailabilityDeps,
  query: AvailabilityQuery,
): ResultAsync<LoadedAvailability, LoadAvailabilityError> {
  return checkQuery(deps, query).asyncAndThen((postcode) =>
    new ResultAsync(load(deps, query, postcode)),
  )
}

async function load(
  deps: AvailabilityDeps,
  query: AvailabilityQuery,
  postcode: ParsedPostcode | undefined,
): Promise<Result<LoadedAvailability, LoadAvailabilityError>> {
  const repos = deps.uow.repos
  const found = await repos.bookableTeaches.findBookableTeach(query.teachId)
  if (!found) return err(notFound('teach'))
  const filters = checkTeachFilters(found.teach, query)
  if (filters.isErr()) return err(filters.error)

  const now = deps.clock.now()
  const tutorId = found.teach.tutorId
  const range = loadingRange(query, now)
  const [schedule, holidays, location, lessons, busy, geocoded] = await Promise.all([
    repos.daySchedules.listForTutor(tutorId),
    repos.holidays.listForTutor(tutorId),
    repos.locations.findForTutor(tutorId),
    repos.tutorLessons.liveLessonsOfTutor(tutorId, range.from, range.to, { excludeLessonId: query.excludeLessonId }),
    found.calendarFeedUrl ? deps.calendar.busyBetween(found.calendarFeedUrl, range.from, range.to) : Promise.resolve<BusyInterval[]>([]),
    postcode !== undefined ? locatePostcode(deps.geocoder, postcode, 'post_code') : undefined,
  ])
  if (geocoded?.isErr()) return err(geocoded.error)

  const studentPoint = query.studentPoint ?? (geocoded?.isOk() ? geocoded.value : null)
  const tutorPoint = location ? { lat: location.lat, lng: location.lng } : null
  const withinTravelDistance =
    studentPoint !== null && location !== undefined && distanceMiles(location, studentPoint) <= location.travelDistanceMiles
  const place =
    query.lessonType === 'tutors_home' ? tutorPoint : query.lessonType === 'students_home' ? studentPoint : null

  const timeZone = isValidTimeZone(found.timeZone) ? found.timeZone : DEFAULT_TUTOR_TIME_ZONE
  return ok({
    schedule,
    timeZone,
    holidays,
    lessons: await withTravel(deps, lessons, location, place),
    busy,
    withinTravelDistance,
    request: {
      date: query.date,
      durationMinutes: query.durationMinutes,
      lessonType: query.lessonType,
      subjectId: found.teach.subjectId,
      subjectLevelId: query.subjectLevelId,
      examBoardId: query.examBoardId,
      utcOffsetMinutes: query.utcOffsetMinutes,
    },
    now,
    teach: found.teach,
    tutorId,
    hourlyRatePence: found.teach.hourlyRatePence,
    place,
    studentPoint,
  })
}
