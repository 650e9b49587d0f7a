import {
  BOOKING_WINDOW_DAYS,
  DAY_MS,
  DEFAULT_TUTOR_TIME_ZONE,
  dayNumberOf,
  distanceMiles,
  isInPerson,
  isValidTimeZone,
  publicPoint,
  type GeoPoint,
  type IsoDate,
  type WithoutLocks,
} from '../shared'
import type { Teach } from '../teaching'
import type { BookedLesson, BusyInterval } from './busy'
import type { AvailabilityInput, AvailabilityRequest } from './compute-availability'
import type { AvailabilityDeps, AvailabilityRepos, BookableTeach, SlotFactsRange, TutorLesson, TutorSlotFacts } from './ports'

/** The reader the loader uses; a booking passes its transaction's. */
export type SlotReaders = WithoutLocks<Pick<AvailabilityRepos, 'slotFacts'>>

/**
 * An `AvailabilityInput` ready for `computeAvailability` / `isSlotAvailable`, with the teach
 * it is about and the student's place (given, or geocoded from a postcode), if any.
 */
export type LoadedAvailability = AvailabilityInput & { teach: Teach; studentPoint: GeoPoint | null }

/** What one question asks of the loader besides the teach. */
export type LoadFrame = {
  request: AvailabilityRequest
  /** The client date asked about; without it the whole 14-day window. */
  date?: IsoDate
  /** The student's place; a promise when a geocoder is still looking it up. */
  studentPoint: GeoPoint | null | Promise<GeoPoint | null>
  /** A lesson to leave out of the clashes (rescheduling that lesson). */
  excludeLessonId?: number
}

/** Lessons this far either side of the requested date (or window) can still clash through buffer and travel. */
const MARGIN_DAYS = 2

const pointKey = (p: GeoPoint): string => `${p.lat.toFixed(6)},${p.lng.toFixed(6)}`

/** One question's reading of the clock, and the instants whose lessons and events can matter to its answer. */
export type LoadWindow = { now: Date; from: Date; to: Date }

export function loadWindow(deps: Pick<AvailabilityDeps, 'clock'>, date: IsoDate | undefined): LoadWindow {
  const now = deps.clock.now()
  if (date !== undefined) {
    const day = dayNumberOf(date)
    return { now, from: new Date((day - MARGIN_DAYS) * DAY_MS), to: new Date((day + 1 + MARGIN_DAYS) * DAY_MS) }
  }
  return {
    now,
    from: new Date(now.getTime() - MARGIN_DAYS * DAY_MS),
    to: new Date(now.getTime() + (BOOKING_WINDOW_DAYS + 1 + MARGIN_DAYS) * DAY_MS),
  }
}

/** What a question over `window` asks of the database. */
export const factsRange = (window: LoadWindow, excludeLessonId?: number): SlotFactsRange => ({ from: window.from, to: window.to, excludeLessonId })

/**
 * Where a booked lesson takes place, as availability may know it: the tutor's public point,
 * the stored address, or nowhere (online). The tutor's exact home is never an endpoint of a
 * travel time: a student could read it back from the slots offered (CONTRACT §15).
 */
function placeOfLesson(lesson: TutorLesson, tutorPoint: GeoPoint | null): GeoPoint | null {
  if (lesson.lessonType === 'tutors_home') return tutorPoint
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
  tutorPoint: GeoPoint | null,
  place: GeoPoint | null,
): Promise<BookedLesson[]> {
  const places = lessons.map((lesson) => placeOfLesson(lesson, tutorPoint))
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
 * Reads, through the repositories given, everything availability needs about one teach's
 * tutor for one question: the weekly schedule, holidays, zone, location, live lessons (with
 * travel to and from the requested place), external calendar busy times, and whether the
 * student lies within the tutor's travel distance. One database statement whatever the
 * number of lessons. The teach is the caller's: it has already read and checked it.
 */
export async function loadAvailabilityInput(
  deps: Pick<AvailabilityDeps, 'clock' | 'travel' | 'calendar'>,
  repos: SlotReaders,
  bookable: BookableTeach,
  frame: LoadFrame,
): Promise<LoadedAvailability> {
  const window = loadWindow(deps, frame.date)
  const facts = repos.slotFacts.forTutor(bookable.teach.tutorId, factsRange(window, frame.excludeLessonId))
  return availabilityInputOf(deps, { bookable, facts, window }, frame)
}

/** What was read for one question: the teach, its tutor's facts (or the statement still reading them), over `window`. */
export type ReadFacts = { bookable: BookableTeach; facts: TutorSlotFacts | Promise<TutorSlotFacts>; window: LoadWindow }

/**
 * The input for facts already read (or being read): the calendar feed, the geocoder and the
 * database answer together, then one travel call for all the lessons.
 */
export async function availabilityInputOf(
  deps: Pick<AvailabilityDeps, 'travel' | 'calendar'>,
  read: ReadFacts,
  frame: LoadFrame,
): Promise<LoadedAvailability> {
  const { bookable, window } = read
  const [{ schedule, holidays, location, lessons }, busy, studentPoint] = await Promise.all([
    read.facts,
    bookable.calendarFeedUrl ? deps.calendar.busyBetween(bookable.calendarFeedUrl, window.from, window.to) : Promise.resolve<BusyInterval[]>([]),
    frame.studentPoint,
  ])
  const lessonType = frame.request.lessonType
  // Every answer measures from the public point, never the home (CONTRACT §15), as search's rule 6 does.
  const tutorPoint = location ? publicPoint(location) : null
  const place = lessonType === 'tutors_home' ? tutorPoint : lessonType === 'students_home' ? studentPoint : null
  return {
    schedule,
    timeZone: isValidTimeZone(bookable.timeZone) ? bookable.timeZone : DEFAULT_TUTOR_TIME_ZONE,
    holidays,
    lessons: await withTravel(deps, lessons, tutorPoint, place),
    busy,
    withinTravelDistance: studentPoint !== null && location !== undefined && distanceMiles(publicPoint(location), studentPoint) <= location.travelDistanceMiles,
    request: { ...frame.request, subjectId: bookable.teach.subjectId },
    now: window.now,
    teach: bookable.teach,
    studentPoint,
  }
}
