import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { fieldError, notFound, type NotFound, type ValidationFailed } from '../shared'
import type { AccountsDeps } from './ports'
import { USERNAME_PATTERN, type User } from './user'

/**
 * Reached through a signed link that names the user and the handle offered to them, so
 * the link itself is the permission. The handle must still be free when it is claimed.
 */
export function claimUsername(
  deps: Pick<AccountsDeps, 'uow'>,
  input: { userId: number; username: string },
): ResultAsync<User, NotFound | ValidationFailed> {
  return new ResultAsync(run(deps, input.userId, input.username.toLowerCase()))
}

async function run(
  deps: Pick<AccountsDeps, 'uow'>,
  userId: number,
  username: string,
): Promise<Result<User, NotFound | ValidationFailed>> {
  if (!USERNAME_PATTERN.test(username)) return err(fieldError('username', 'is not a valid username'))
  return deps.uow.run(async ({ users }) => {
    const user = await users.findById(userId)
    if (!user) return err(notFound('user'))
    if (user.username === username) return ok(user)
    if (await users.isUsernameTaken(username, userId)) return err(fieldError('username', 'has already been taken'))
    return ok(await users.update(userId, { username }))
  })
}
