import { isBookable } from '../teaching'
import type { BookableTeach, BookableTeachReader } from './ports'

/**
 * The teach a client may ask availability of or book: live and enabled, of a tutor who may be
 * booked (CONTRACT §14). Any other answers undefined, exactly as an unknown teach does, so a
 * caller can not tell an unverified tutor's teach from one that never existed.
 */
export async function findBookable(reader: BookableTeachReader, teachId: number): Promise<BookableTeach | undefined> {
  const found = await reader.findBookableTeach(teachId)
  return found && isBookable(found.tutor) ? found : undefined
}
