import { err, ok, type Result } from 'neverthrow'
import { dayNumberAt, isInPerson, isoDateOf, type GeoPoint, type LessonTypeName } from '../shared'
import { loadAvailabilityInput, type LoadedAvailability, type SlotReaders } from './load-availability-input'
import type { AvailabilityDeps, BookableTeach } from './ports'
import { isSlotAvailable, type SlotUnavailable } from './slot-check'

/** Exactly one lesson's times, as booking or rescheduling asks about them. */
export type SlotQuery = {
  /** The teach as the caller read it (`bookableTeaches`), in its transaction. */
  teach: BookableTeach
  start: Date
  finish: Date
  lessonType: LessonTypeName
  subjectLevelId: number | null
  examBoardId: number | null
  /** Where the student is, for a lesson at the student's home. */
  studentPoint: GeoPoint | null
  /** Rescheduling: the lesson's own time does not clash with itself. */
  excludeLessonId?: number
}

export type SlotCheckDeps = Pick<AvailabilityDeps, 'clock' | 'travel' | 'calendar'>

/**
 * Booking's one question to availability: would it offer exactly this slot (schedule,
 * holidays, buffers, travel, busy calendar, other lessons)? Read on the repositories given,
 * the booking's transaction's, so under the tutor's lock the answer holds until the caller
 * writes; the database's exclusion constraint is the last line behind it. Ok hands back what
 * was loaded, for the caller to go on with.
 */
export async function checkSlot(deps: SlotCheckDeps, repos: SlotReaders, slot: SlotQuery): Promise<Result<LoadedAvailability, SlotUnavailable>> {
  const request = { lessonType: slot.lessonType, subjectLevelId: slot.subjectLevelId ?? undefined, examBoardId: slot.examBoardId ?? undefined }
  const loaded = await loadAvailabilityInput(deps, repos, slot.teach, {
    request,
    date: isoDateOf(dayNumberAt(slot.start.getTime(), 0)),
    studentPoint: slot.lessonType === 'students_home' ? slot.studentPoint : null,
    excludeLessonId: slot.excludeLessonId,
  })
  const verdict = isSlotAvailable(loaded, { ...request, start: slot.start, finish: slot.finish, subjectId: slot.teach.teach.subjectId })
  return verdict.isOk() ? ok(loaded) : err(verdict.error)
}

/**
 * The slow, external half of a slot check (the calendar feed's busy times and driving times),
 * asked before the caller takes the tutor's lock and remembered: the check under the lock then
 * reads only the database, so a slow feed or routing service never holds the lock (issue 13).
 * Schedule, holidays, location and lessons are still read under the lock; a lesson booked
 * meanwhile changes the travel question and is asked afresh. An online lesson of a tutor
 * without a feed asks nothing outside, so nothing is read before the lock.
 */
export async function warmSlotCheck(deps: SlotCheckDeps, repos: SlotReaders, slot: SlotQuery): Promise<SlotCheckDeps> {
  // Nothing slow to ask: no feed, and an online lesson has no place to travel from.
  if (!slot.teach.calendarFeedUrl && !isInPerson(slot.lessonType)) return deps
  const busy = new Map<string, ReturnType<SlotCheckDeps['calendar']['busyBetween']>>()
  const travel = new Map<string, ReturnType<SlotCheckDeps['travel']['between']>>()
  const warm: SlotCheckDeps = {
    clock: deps.clock,
    calendar: {
      busyBetween(url, from, to) {
        const key = `${url} ${from.toISOString()} ${to.toISOString()}`
        const answer = busy.get(key) ?? deps.calendar.busyBetween(url, from, to)
        busy.set(key, answer)
        return answer
      },
    },
    travel: {
      between(origin, places) {
        const key = JSON.stringify([origin, places])
        const answer = travel.get(key) ?? deps.travel.between(origin, places)
        travel.set(key, answer)
        return answer
      },
    },
  }
  await checkSlot(warm, repos, slot)
  return warm
}
