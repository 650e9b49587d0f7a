import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { ROLE_IDS, fieldError, type RoleName, type ValidationFailed } from '../shared'
import { pickUsername } from './pick-username'
import type { AccountsDeps } from './ports'
import { normaliseEmail, type User } from './user'

export type CreateUserInput = {
  email: string
  password: string
  role: RoleName
  firstname: string
  lastname: string
  country?: string
}

/**
 * The operator's way in (CLI `user:create`): any role, internal included, with the email
 * taken as verified because the operator typed it.
 */
export function createUser(deps: AccountsDeps, input: CreateUserInput): ResultAsync<User, ValidationFailed> {
  return new ResultAsync(run(deps, { ...input, email: normaliseEmail(input.email) }))
}

async function run(deps: AccountsDeps, input: CreateUserInput): Promise<Result<User, ValidationFailed>> {
  if (input.password.length < 8 || input.password.length > 128) {
    return err(fieldError('password', 'must be 8 to 128 characters'))
  }
  const passwordHash = await deps.hasher.hash(input.password)
  return deps.uow.run(async ({ users, registration }) => {
    if (await users.isEmailTaken(input.email)) return err(fieldError('email', 'has already been taken'))
    const username = await pickUsername(users, deps.secrets, input.firstname, input.lastname)
    const user = await users.insert({
      email: input.email,
      passwordHash,
      username,
      firstname: input.firstname,
      lastname: input.lastname,
      roleId: ROLE_IDS[input.role],
      country: input.country ?? 'GB',
      processorCustomerId: null,
    })
    if (!user) return err(fieldError('email', 'has already been taken'))
    const now = deps.clock.now()
    await users.markEmailVerified(user.id, now)
    await registration.insertPersonalDetails(user.id, { dateOfBirth: null })
    await registration.insertProfile(user.id, { pictureFileId: null })
    return ok({ ...user, emailVerifiedAt: now })
  })
}
