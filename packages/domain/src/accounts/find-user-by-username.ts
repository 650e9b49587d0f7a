import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { isInternal, notFound, ROLE_IDS, type NotFound } from '../shared'
import type { AccountsDeps } from './ports'
import type { User } from './user'

/**
 * Public lookup by handle. Staff accounts, tutors who hid their profile and deleted users
 * are not found, exactly as an unknown handle is, so the lookup reveals none of them.
 */
export function findUserByUsername(deps: Pick<AccountsDeps, 'uow'>, username: string): ResultAsync<User, NotFound> {
  return new ResultAsync(run(deps, username))
}

async function run(deps: Pick<AccountsDeps, 'uow'>, username: string): Promise<Result<User, NotFound>> {
  const { users } = deps.uow.repos
  const user = await users.findByUsername(username)
  if (!user || isInternal(user.roleId)) return err(notFound('user'))
  if (user.roleId === ROLE_IDS.tutor && !(await users.isProfileVisible(user.id))) return err(notFound('user'))
  return ok(user)
}
