import { err, ok, ResultAsync, type Result } from 'neverthrow'
import {
  actsFor,
  notFound,
  type Actor,
  type FieldErrors,
  type NotFound,
  type ValidationFailed,
  validationFailed,
} from '../shared'
import { offerFreedUsername } from './freed-username'
import type { AccountsDeps, UserPatch } from './ports'
import { USERNAME_PATTERN, type User } from './user'

export type UpdateUserError = NotFound | ValidationFailed

export function updateUser(
  deps: Pick<AccountsDeps, 'uow' | 'links' | 'clock'>,
  actor: Actor,
  input: { id: number; patch: UserPatch },
): ResultAsync<User, UpdateUserError> {
  return new ResultAsync(run(deps, actor, input.id, input.patch))
}

async function run(
  deps: Pick<AccountsDeps, 'uow' | 'links' | 'clock'>,
  actor: Actor,
  id: number,
  patch: UserPatch,
): Promise<Result<User, UpdateUserError>> {
  return deps.uow.run(async ({ users, reference, outbox }) => {
    // Another user's account is not found, exactly as an unknown id is.
    if (!actsFor(actor, id)) return err(notFound('user'))
    const user = await users.findById(id)
    if (!user) return err(notFound('user'))
    const problems: FieldErrors = {}
    if (patch.username !== undefined) {
      if (!USERNAME_PATTERN.test(patch.username)) {
        problems.username = ['must be 3 to 30 lower-case letters, digits, dots, dashes or underscores']
      } else if (await users.isUsernameTaken(patch.username, id)) {
        problems.username = ['has already been taken']
      }
    }
    if (patch.country !== undefined && !(await reference.countryExists(patch.country))) {
      problems.country = ['is not a known country code']
    }
    if (Object.keys(problems).length > 0) return err(validationFailed(problems))
    if (Object.keys(patch).length === 0) return ok(user)
    const updated = await users.update(id, patch)
    if (updated.username !== user.username) await offerFreedUsername(deps, { users, outbox }, { holder: user, username: user.username }, deps.clock.now())
    return ok(updated)
  })
}
