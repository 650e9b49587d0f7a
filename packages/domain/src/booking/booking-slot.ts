import { err, ok, type Result } from 'neverthrow'
import { slotUnavailable, type SlotUnavailable } from '../availability'
import type { BookingRepository } from './ports'

/**
 * Whether the requested time is free of the tutor's other lessons (holds included). Run
 * under the tutor's lock, so its answer stays true until the insert; the database's
 * exclusion constraint is the last line behind it.
 */
export async function checkSlotFree(
  bookings: BookingRepository,
  slot: { tutorId: number; start: Date; finish: Date; exceptLessonId?: number },
  now: Date,
): Promise<Result<void, SlotUnavailable>> {
  const clashes = await bookings.holdingLessons(slot.tutorId, slot.start, slot.finish, now, slot.exceptLessonId)
  const overlaps = clashes.some((l) => l.start.getTime() < slot.finish.getTime() && slot.start.getTime() < l.finish.getTime())
  return overlaps ? err(slotUnavailable(slot.start, slot.finish)) : ok(undefined)
}
