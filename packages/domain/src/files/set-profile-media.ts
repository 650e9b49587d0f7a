import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { actsFor, forbidden, notFound, type Forbidden, type NotFound, type Actor } from '../shared'
import type { StoreUploadError } from './errors'
import type { FilesDeps, FilesRepos, MediaProfile, ProfileMediaSlot } from './ports'
import { storeFile, type UploadInput } from './store-upload'

export type ProfileMediaInput = {
  userId: number
  slot: ProfileMediaSlot
  upload: Omit<UploadInput, 'purpose' | 'accept'>
}

export type SetProfileMediaError = NotFound | Forbidden | StoreUploadError

const SLOTS = {
  picture: { purpose: 'profile_picture', accept: ['image'], column: 'pictureFileId' },
  video: { purpose: 'profile_video', accept: ['video'], column: 'videoFileId' },
} as const

/**
 * A new profile picture or video for a user (themselves, or staff for them). The file
 * belongs to the user; the one it replaces is soft-deleted with it and its bytes removed.
 */
export function setProfileMedia(deps: FilesDeps, actor: Actor, input: ProfileMediaInput): ResultAsync<MediaProfile, SetProfileMediaError> {
  return new ResultAsync(run(deps, actor, input))
}

async function run(deps: FilesDeps, actor: Actor, input: ProfileMediaInput): Promise<Result<MediaProfile, SetProfileMediaError>> {
  const user = await deps.uow.repos.users.findById(input.userId)
  if (!user) return err(notFound('user'))
  if (!actsFor(actor, user.id)) return err(forbidden('only the user or an internal user may change this profile'))
  const slot = SLOTS[input.slot]
  let replacedKey: string | undefined
  const attach = async (repos: FilesRepos, file: { id: string }): Promise<Result<MediaProfile, never>> => {
    const before = await repos.media.lockProfile(user.id)
    const replacedId = before[slot.column]
    const profile = await repos.media.setProfileFile(user.id, input.slot, file.id)
    const replaced = replacedId ? await repos.files.findById(replacedId) : undefined
    if (replaced) {
      await repos.files.softDelete(replaced.id, deps.clock.now())
      replacedKey = replaced.storageKey
    }
    return ok(profile)
  }
  const stored = await storeFile(deps, { ...input.upload, purpose: slot.purpose, accept: slot.accept, ownerId: user.id, attach })
  if (stored.isOk() && replacedKey) await deps.storage.delete(replacedKey)
  return stored
}
