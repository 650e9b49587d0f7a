import { err, ok, ResultAsync } from 'neverthrow'
import { notFound, type NotFound, type Actor } from '../shared'
import { maySeeFile } from './file-policy'
import type { FilesDeps } from './ports'
import type { StoredFile } from './stored-file'

export function getFile(deps: Pick<FilesDeps, 'uow'>, actor: Actor, id: string): ResultAsync<StoredFile, NotFound> {
  return ResultAsync.fromSafePromise(deps.uow.repos.files.findById(id)).andThen((file) =>
    file && maySeeFile(actor, file) ? ok(file) : err(notFound('file')),
  )
}
