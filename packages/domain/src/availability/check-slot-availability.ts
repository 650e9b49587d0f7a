import { ResultAsync, err, ok } from 'neverthrow'
import { dayNumberAt, isoDateOf, type LessonTypeName } from '../shared'
import { loadAvailabilityInput, type AvailabilityQuery, type LoadAvailabilityError, type LoadedAvailability } from './load-availability-input'
import type { AvailabilityDeps } from './ports'
import { isSlotAvailable, type SlotUnavailable } from './slot-check'

/** Exactly one lesson's times, as booking or rescheduling asks about them. */
export type SlotQuery = Omit<AvailabilityQuery, 'date' | 'durationMinutes' | 'utcOffsetMinutes' | 'lessonType'> & {
  start: Date
  finish: Date
  lessonType: LessonTypeName
}

/**
 * Whether availability, loaded for `loaded`, would offer exactly [start, finish) for the lesson
 * type, subject level and exam board: the domain's `isSlotAvailable` on that input.
 */
export const slotAvailableIn = (
  loaded: LoadedAvailability,
  slot: { start: Date; finish: Date; lessonType: LessonTypeName; subjectLevelId?: number; examBoardId?: number },
) =>
  isSlotAvailable(loaded, {
    start: slot.start,
    finish: slot.finish,
    lessonType: slot.lessonType,
    subjectId: loaded.teach.subjectId,
    subjectLevelId: slot.subjectLevelId,
    examBoardId: slot.examBoardId,
  })

/**
 * Loads the teach's availability around `start` (through `loadAvailabilityInput`) and asks
 * whether exactly this slot is offered. Ok carries the loaded input (price, tutor, zone, place)
 * so a booking can go on without reading it twice. Not a transaction: the database's
 * exclusion constraint remains the last word against a double booking.
 */
export function checkSlotAvailability(
  deps: AvailabilityDeps,
  query: SlotQuery,
): ResultAsync<LoadedAvailability, LoadAvailabilityError | SlotUnavailable> {
  const date = isoDateOf(dayNumberAt(query.start.getTime(), 0))
  return loadAvailabilityInput(deps, { ...query, date, utcOffsetMinutes: 0 }).andThen((loaded) => {
    const verdict = slotAvailableIn(loaded, query)
    return verdict.isOk() ? ok(loaded) : err(verdict.error)
  })
}
