import { isInternal, type Actor } from '../shared'
import type { StoredFile } from './stored-file'

/**
 * A file is seen by its owner and by internal staff only; an anonymous upload nobody has
 * claimed yet is seen by staff alone. Everyone else is told it does not exist.
 */
export const maySeeFile = (actor: Actor, file: StoredFile): boolean =>
  isInternal(actor.roleId) || (file.ownerId !== null && file.ownerId === actor.id)
