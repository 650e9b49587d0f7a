import { err, ok, type Result } from 'neverthrow'
import { MINUTE_MS, dayNumberAt, isoDateOf, type LessonTypeName } from '../shared'
import { availableStarts, type AvailabilityInput } from './compute-availability'

/** `conflicts`: of a weekly series, the start of every week that is not free (CONTRACT §16). */
export type SlotUnavailable = { type: 'SlotUnavailable'; start: Date; finish: Date; conflicts?: Date[] }
export const slotUnavailable = (start: Date, finish: Date, conflicts?: Date[]): SlotUnavailable =>
  conflicts ? { type: 'SlotUnavailable', start, finish, conflicts } : { type: 'SlotUnavailable', start, finish }

export type RequestedSlot = {
  start: Date
  finish: Date
  lessonType: LessonTypeName
  subjectId?: number
  subjectLevelId?: number
  examBoardId?: number
}

/**
 * Whether a booking's times are one of the slots availability would offer for its lesson
 * type and teach, so that booking and the availability listing can never disagree.
 */
export const isSlotAvailable = (
  input: Omit<AvailabilityInput, 'request'>,
  slot: RequestedSlot,
): Result<void, SlotUnavailable> => {
  const startMs = slot.start.getTime()
  const lengthMs = slot.finish.getTime() - startMs
  if (!(lengthMs > 0) || lengthMs % MINUTE_MS !== 0) return err(slotUnavailable(slot.start, slot.finish))
  const days = availableStarts({
    ...input,
    request: {
      date: isoDateOf(dayNumberAt(startMs, 0)),
      utcOffsetMinutes: 0,
      durationMinutes: lengthMs / MINUTE_MS,
      lessonType: slot.lessonType,
      subjectId: slot.subjectId,
      subjectLevelId: slot.subjectLevelId,
      examBoardId: slot.examBoardId,
    },
  })
  return days.some((day) => day.starts.includes(startMs)) ? ok(undefined) : err(slotUnavailable(slot.start, slot.finish))
}
