import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { notFound, type NotFound, type Actor } from '../shared'
import { maySeeFile } from './file-policy'
import type { FilesDeps } from './ports'

/**
 * Soft-deletes the row and removes the bytes. Whatever pointed at the file (a profile
 * picture or video, a verification document) lets go of it in the same transaction, so
 * nothing keeps showing a file that is gone.
 */
export function deleteFile(deps: Pick<FilesDeps, 'uow' | 'storage' | 'clock'>, actor: Actor, id: string): ResultAsync<void, NotFound> {
  return new ResultAsync(run(deps, actor, id))
}

async function run(deps: Pick<FilesDeps, 'uow' | 'storage' | 'clock'>, actor: Actor, id: string): Promise<Result<void, NotFound>> {
  const removed = await deps.uow.run(async ({ files, media }) => {
    const file = await files.findById(id)
    if (!file || !maySeeFile(actor, file)) return err(notFound('file'))
    await media.detachFile(file.id)
    await files.softDelete(file.id, deps.clock.now())
    return ok(file.storageKey)
  })
  if (removed.isErr()) return err(removed.error)
  await deps.storage.delete(removed.value)
  return ok(undefined)
}
