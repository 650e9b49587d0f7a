import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { unauthenticated } from '../accounts'
import { fieldError, type Actor } from '../shared'
import { limitBytes, peek } from './byte-streams'
import { payloadTooLarge, unsupportedMediaType, type PayloadTooLarge, type StoreUploadError } from './errors'
import { categoryOf, largestLimit, typesOf, type MediaCategory } from './media-types'
import type { FilesDeps, FilesRepos, ObjectStorage } from './ports'
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
  actor: Actor | undefined,
  input: UploadInput & { attach?: AttachUpload<Repos, T, E> },
): ResultAsync<T, StoreUploadError | E> {
  return new ResultAsync(storeFile(deps, { ...input, ownerId: actor?.id ?? null }))
}

type OwnedUpload<Repos, T, E> = UploadInput & { ownerId: number | null; attach?: AttachUpload<Repos, T, E> }

/** `storeUpload` for an owner chosen by the caller (staff acting for a user). */
export async function storeFile<Repos extends FilesRepos, T = StoredFile, E = never>(
  deps: FilesDeps<Repos>,
  input: OwnedUpload<Repos, T, E>,
): Promise<Result<T, StoreUploadError | E>> {
  const name = cleanFileName(input.name)
  if (name === undefined) return err(fieldError('file', 'needs a file name'))
  const inspected = await inspect(deps, input)
  if (inspected.isErr()) return err(inspected.error)
  const id = deps.ids.uuid()
  const storageKey = `files/${id}`
  const stored = await putWithinLimit(deps.storage, storageKey, inspected.value, input.size)
  if (stored.isErr()) return err(stored.error)
  const file = { id, ownerId: input.ownerId, purpose: input.purpose, name, mimeType: inspected.value.mimeType, size: stored.value, storageKey }
  try {
    const recorded = await deps.uow.run(async (repos): Promise<Result<T, E>> => {
      const row = await repos.files.insert(file, deps.clock.now())
      return input.attach ? input.attach(repos, row) : ok(row as T)
    })
    if (recorded.isErr()) await deps.storage.delete(storageKey)
    return recorded
  } catch (error) {
    await deps.storage.delete(storageKey)
    throw error
  }
}

type Inspected = { mimeType: string; limit: number; content: AsyncIterable<Uint8Array> }

/** The content's type from its first bytes, and whether this upload may have it at that size. */
async function inspect(
  deps: Pick<FilesDeps, 'sniffer' | 'limits'>,
  input: Pick<OwnedUpload<unknown, unknown, unknown>, 'purpose' | 'accept' | 'content' | 'ownerId' | 'size'>,
): Promise<Result<Inspected, StoreUploadError>> {
  const purposeAccepts = PURPOSE_ACCEPTS[input.purpose]
  const accepted = input.accept ? purposeAccepts.filter((category) => input.accept!.includes(category)) : purposeAccepts
  const peeked = await peek(input.content, deps.sniffer.headBytes)
  const mimeType = await deps.sniffer.detect(peeked.head)
  const refusal = refuse({ accepted, mimeType, anonymous: input.ownerId === null, size: input.size, limits: deps.limits })
  if (refusal) {
    await peeked.release()
    return err(refusal)
  }
  return ok({ mimeType: mimeType!, limit: deps.limits[categoryOf(mimeType!)!], content: peeked.all })
}

/**
 * Whether an upload of this detected type may be stored here, before its size is known:
 * the type (415), then who may upload it (401: without an account, images only). Answers
 * the byte limit of that type. The HTTP edge asks it from the first bytes of a streaming
 * upload, so a refusal comes before the rest is read.
 */
export function admitUpload(facts: {
  accepted: readonly MediaCategory[]
  mimeType: string | undefined
  anonymous: boolean
  limits: FilesDeps['limits']
}): Result<number, StoreUploadError> {
  const category = facts.mimeType === undefined ? undefined : categoryOf(facts.mimeType)
  if (category === undefined || !facts.accepted.includes(category)) return err(unsupportedMediaType(facts.mimeType ?? null, typesOf(facts.accepted)))
  if (facts.anonymous && category !== 'image') return err(unauthenticated())
  return ok(facts.limits[category])
}

/** The most a caller may upload among these categories, whatever the type turns out to be. */
export const largestUploadFor = (anonymous: boolean, accepted: readonly MediaCategory[], limits: FilesDeps['limits']): number =>
  largestLimit(limits, anonymous ? accepted.filter((category) => category === 'image') : accepted)

/** Checked in this order: the type (415), who may upload it (401), then its size (413). */
function refuse(facts: {
  accepted: readonly MediaCategory[]
  mimeType: string | undefined
  anonymous: boolean
  size: number
  limits: FilesDeps['limits']
}): StoreUploadError | undefined {
  const admitted = admitUpload(facts)
  if (admitted.isErr()) return admitted.error
  if (facts.size > admitted.value) return payloadTooLarge(admitted.value)
  return undefined
}

/** Streams the content to storage, stopping at the limit; answers the bytes stored. */
async function putWithinLimit(
  storage: ObjectStorage,
  key: string,
  inspected: Inspected,
  size: number,
): Promise<Result<number, PayloadTooLarge>> {
  const state = { exceeded: false, seen: 0 }
  try {
    await storage.put(key, limitBytes(inspected.content, inspected.limit, state), { contentType: inspected.mimeType, size })
    return ok(state.seen)
  } catch (error) {
    await storage.delete(key)
    if (state.exceeded) return err(payloadTooLarge(inspected.limit))
    throw error
  }
}
