import { err, ok, type Result } from 'neverthrow'
import { checkSlotAvailability, slotUnavailable, type SlotUnavailable } from '../availability'
import { POSTCODE_UNKNOWN, fieldError, type LessonTypeName, type ValidationFailed } from '../shared'
import type { LessonAddress } from './booking-record'
import type { BookingDeps, BookingRepos } from './ports'

export type LessonSlot = {
  teachId: number
  start: Date
  finish: Date
  lessonType: LessonTypeName
  subjectLevelId: number
  examBoardId: number | null
  address: LessonAddress | null
  /** Rescheduling: the lesson's own time does not clash with itself. */
  exceptLessonId?: number
}

/**
 * Whether availability would offer exactly this slot (schedule, holidays, buffers, travel,
 * busy calendar, other lessons), read through the transaction's repositories. Callers hold
 * the tutor's lock, so the answer stays true until they write; the database's exclusion
 * constraint is the last line behind it.
 */
export async function checkLessonSlot(
  deps: Pick<BookingDeps, 'clock' | 'availability'>,
  repos: BookingRepos,
  slot: LessonSlot,
): Promise<Result<void, SlotUnavailable | ValidationFailed>> {
  const address = slot.address
  const place =
    address && address.lat !== null && address.lng !== null
      ? { studentPoint: { lat: address.lat, lng: address.lng } }
      : address
        ? { studentPostcode: address.postcode }
        : {}
  const checked = await checkSlotAvailability(
    { ...deps.availability, clock: deps.clock, uow: { repos, run: (work) => work(repos) } },
    {
      teachId: slot.teachId,
      start: slot.start,
      finish: slot.finish,
      lessonType: slot.lessonType,
      subjectLevelId: slot.subjectLevelId,
      examBoardId: slot.examBoardId ?? undefined,
      excludeLessonId: slot.exceptLessonId,
      ...(slot.lessonType === 'students_home' ? place : {}),
    },
  )
  if (checked.isOk()) return ok(undefined)
  const e = checked.error
  if (e.type === 'NotFound') return err(slotUnavailable(slot.start, slot.finish))
  if (e.type === 'ValidationFailed' && e.errors.post_code) return err(fieldError('address.postcode', e.errors.post_code[0] ?? POSTCODE_UNKNOWN))
  return err(e)
}
