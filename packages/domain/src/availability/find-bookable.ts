import { isBookable } from '../teaching'
import type { BookableTeach, SlotFactsRange, TutorSlotFacts, TutorSlotFactsReader } from './ports'

/**
 * The teach a client may ask availability of or book: live and enabled, of a tutor who may be
 * booked (CONTRACT §14). Any other answers undefined, exactly as an unknown teach does, so a
 * caller can not tell an unverified tutor's teach from one that never existed. A reader may
 * answer more than the teach (booking's, the answer's setting); that comes back as read.
 */
export async function findBookable<T extends BookableTeach = BookableTeach>(
  reader: { findBookableTeach(teachId: number): Promise<T | undefined> },
  teachId: number,
): Promise<T | undefined> {
  const found = await reader.findBookableTeach(teachId)
  return found && isBookable(found.tutor) ? found : undefined
}

/**
 * `findBookable` and the tutor's facts over `range` in one statement, for a question that
 * holds no lock (the availability routes): the facts are read whether or not the tutor may be
 * booked, and thrown away when not.
 */
export async function findBookableWithFacts(
  reader: TutorSlotFactsReader,
  teachId: number,
  range: SlotFactsRange,
): Promise<(BookableTeach & { facts: TutorSlotFacts }) | undefined> {
  const found = await reader.forTeach(teachId, range)
  return found && isBookable(found.tutor) ? found : undefined
}
