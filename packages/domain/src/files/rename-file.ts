import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { fieldError, notFound, type NotFound, type ValidationFailed, type Actor } from '../shared'
import { maySeeFile } from './file-policy'
import type { FilesDeps } from './ports'
import { cleanFileName, type StoredFile } from './stored-file'

export function renameFile(
  deps: Pick<FilesDeps, 'uow'>,
  actor: Actor,
  input: { id: string; name: string },
): ResultAsync<StoredFile, NotFound | ValidationFailed> {
  return new ResultAsync(run(deps, actor, input))
}

async function run(
  deps: Pick<FilesDeps, 'uow'>,
  actor: Actor,
  input: { id: string; name: string },
): Promise<Result<StoredFile, NotFound | ValidationFailed>> {
  const name = cleanFileName(input.name)
  return deps.uow.run(async ({ files }) => {
    const file = await files.findById(input.id)
    if (!file || !maySeeFile(actor, file)) return err(notFound('file'))
    if (name === undefined) return err(fieldError('name', 'must be a file name'))
    return ok(await files.rename(file.id, name))
  })
}
