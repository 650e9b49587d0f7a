import { err, ok, ResultAsync } from 'neverthrow'
import { fieldError, type NotFound, type ValidationFailed, type Actor } from '../shared'
import { visible } from './owned-records'
import type { ProfilePatch, ProfilesDeps } from './ports'
import { BIO_MAX_CHARS, type UserProfile } from './records'

/** Bio (at most 500 characters), teacher reference number, tutoring experience, visibility. */
export function updateProfile(
  deps: ProfilesDeps,
  actor: Actor,
  input: { id: number; patch: ProfilePatch },
): ResultAsync<UserProfile, NotFound | ValidationFailed> {
  return new ResultAsync(
    deps.uow.run(async ({ personalRecords: { profiles } }) => {
      const found = visible(await profiles.findById(input.id), actor, 'profile')
      if (found.isErr()) return err(found.error)
      // Characters, not UTF-16 units, as the column counts them.
      if (input.patch.bio && [...input.patch.bio].length > BIO_MAX_CHARS) {
        return err(fieldError('bio', `must be at most ${BIO_MAX_CHARS} characters`))
      }
      return ok(await profiles.update(input.id, input.patch))
    }),
  )
}
