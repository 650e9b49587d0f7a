import { errAsync, okAsync, ResultAsync } from 'neverthrow'
import { notFound, type NotFound } from '../shared'
import type { AccountsDeps } from './ports'
import type { User } from './user'

/** Public lookup by handle; deleted users are gone. */
export function findUserByUsername(deps: Pick<AccountsDeps, 'uow'>, username: string): ResultAsync<User, NotFound> {
  return ResultAsync.fromSafePromise(deps.uow.repos.users.findByUsername(username)).andThen((user) =>
    user ? okAsync(user) : errAsync(notFound('user')),
  )
}
