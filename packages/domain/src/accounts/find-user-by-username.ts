import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { isInternal, notFound, type NotFound } from '../shared'
import type { AccountsDeps } from './ports'
import type { User } from './user'

/**
 * Public lookup by handle. Staff accounts and deleted users are not found, exactly as an
 * unknown handle is, so the lookup reveals neither. A tutor who hid their profile is found:
 * visibility gates search only (CONTRACT §14), and GET /api/tutors/{id}/profile answers it too.
 */
export function findUserByUsername(deps: Pick<AccountsDeps, 'uow'>, username: string): ResultAsync<User, NotFound> {
  return new ResultAsync(run(deps, username))
}

async function run(deps: Pick<AccountsDeps, 'uow'>, username: string): Promise<Result<User, NotFound>> {
  const { users } = deps.uow.repos
  const user = await users.findByUsername(username)
  if (!user || isInternal(user.roleId)) return err(notFound('user'))
  return ok(user)
}
