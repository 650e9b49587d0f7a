import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { normaliseEmail, type User } from '../accounts'
import { ROLE_IDS, fieldError, type RoleName, type ValidationFailed } from '../shared'
import { insertUser } from './insert-user'
import type { RegistrationDeps } from './ports'

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
export function createUser(
  deps: Pick<RegistrationDeps, 'uow' | 'hasher' | 'secrets' | 'clock'>,
  input: CreateUserInput,
): ResultAsync<User, ValidationFailed> {
  return new ResultAsync(run(deps, { ...input, email: normaliseEmail(input.email) }))
}

async function run(
  deps: Pick<RegistrationDeps, 'uow' | 'hasher' | 'secrets' | 'clock'>,
  input: CreateUserInput,
): Promise<Result<User, ValidationFailed>> {
  if (input.password.length < 8 || input.password.length > 128) {
    return err(fieldError('password', 'must be 8 to 128 characters'))
  }
  const passwordHash = await deps.hasher.hash(input.password)
  return deps.uow.run(async ({ users, registration }) => {
    if (await users.isEmailTaken(input.email)) return err(fieldError('email', 'has already been taken'))
    const user = await insertUser(deps, users, {
      email: input.email,
      passwordHash,
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
