import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { unauthenticated, type User } from '../accounts'
import { fieldError } from '../shared'
import { limitBytes, peek } from './byte-streams'
import { payloadTooLarge, unsupportedMediaType, type StoreUploadError } from './errors'
import { categoryOf, typesOf, type MediaCategory } from './media-types'
import type { FilesDeps, FilesRepos } from './ports'
import { cleanFileName, PURPOSE_ACCEPTS, type FilePurpose, type StoredFile } from './stored-file'

export type UploadInput = {
  purpose: FilePurpose
  /** The client's file name; only its last segment is kept. */
  name: string
  /** The byte count the caller received; the content may not be longer. */
  size: number
  content: AsyncIterable<Uint8Array>
  /** Narrows the purpose's accepted kinds (a profile image route takes images only). */
  accept?: readonly MediaCategory[]
}

/** Work done in the transaction that records the file; an Err or a throw undoes the upload. */
export type AttachUpload<Repos, T, E> = (repos: Repos, file: StoredFile) => Promise<Result<T, E>>

/**
 * Stores an upload for `actor`, who owns it. The type is read from the content; the size
 * limit is that type's and is enforced while the bytes stream to storage. Without an
 * account only images may be uploaded (registration's `profile_picture`); they stay
 * unowned until claimed.
 *
 * `attach` runs in the same transaction as the file's row, so a caller (a profile picture,
 * a verification document) links the file atomically: if anything fails, neither the row
 * nor the stored object is left behind.
 */
export function storeUpload<Repos extends FilesRepos, T = StoredFile, E = never>(
  deps: FilesDeps<Repos>,
  actor: User | undefined,
  input: UploadInput & { attach?: AttachUpload<Repos, T, E> },
): ResultAsync<T, StoreUploadError | E> {
  return new ResultAsync(storeFile(deps, { ...input, ownerId: actor?.id ?? null }))
}

/** `storeUpload` for an owner chosen by the caller (staff acting for a user). */
export async function storeFile<Repos extends FilesRepos, T = StoredFile, E = never>(
  deps: FilesDeps<Repos>,
  input: UploadInput & { ownerId: number | null; attach?: AttachUpload<Repos, T, E> },
): Promise<Result<T, StoreUploadError | E>> {
  const name = cleanFileName(input.name)
  if (name === undefined) return err(fieldError('file', 'needs a file name'))
  const accepted = input.accept
    ? PURPOSE_ACCEPTS[input.purpose].filter((category) => input.accept!.includes(category))
    : PURPOSE_ACCEPTS[input.purpose]
  const peeked = await peek(input.content, deps.sniffer.headBytes)
  const mimeType = await deps.sniffer.detect(peeked.head)
  const category = mimeType === undefined ? undefined : categoryOf(mimeType)
  const refusal = refuse(deps, input, accepted, mimeType, category)
  if (refusal) {
    await peeked.release()
    return err(refusal)
  }
  const limit = deps.limits[category!]
  const id = deps.ids.uuid()
  const storageKey = `files/${id}`
  const state = { exceeded: false, seen: 0 }
  try {
    await deps.storage.put(storageKey, limitBytes(peeked.all, limit, state), { contentType: mimeType!, size: input.size })
  } catch (error) {
    await deps.storage.delete(storageKey)
    if (state.exceeded) return err(payloadTooLarge(limit))
    throw error
  }
  const file = { id, ownerId: input.ownerId, purpose: input.purpose, name, mimeType: mimeType!, size: state.seen, storageKey }
  try {
    const recorded = await deps.uow.run(async (repos): Promise<Result<T, E>> => {
      const stored = await repos.files.insert(file, deps.clock.now())
      return input.attach ? input.attach(repos, stored) : ok(stored as T)
    })
    if (recorded.isErr()) await deps.storage.delete(storageKey)
    return recorded
  } catch (error) {
    await deps.storage.delete(storageKey)
    throw error
  }
}

function refuse(
  deps: Pick<FilesDeps, 'limits'>,
  input: { ownerId: number | null; size: number },
  accepted: readonly MediaCategory[],
  mimeType: string | undefined,
  category: MediaCategory | undefined,
): StoreUploadError | undefined {
  if (category === undefined || !accepted.includes(category)) {
    return unsupportedMediaType(mimeType ?? null, typesOf(accepted))
  }
  if (input.ownerId === null && category !== 'image') return unauthenticated()
  if (input.size > deps.limits[category]) return payloadTooLarge(deps.limits[category])
  return undefined
}
