import { ResultAsync } from 'neverthrow'
import type { Actor, PageOf, PageRequest } from '../shared'
import type { FilesDeps } from './ports'
import type { StoredFile } from './stored-file'

/** The caller's own files, newest first; staff too see only their own here. */
export function listFiles(deps: Pick<FilesDeps, 'uow'>, actor: Actor, page: PageRequest): ResultAsync<PageOf<StoredFile>, never> {
  return ResultAsync.fromSafePromise(deps.uow.repos.files.listByOwner(actor.id, page))
}
