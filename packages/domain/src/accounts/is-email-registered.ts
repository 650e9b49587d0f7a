import { ResultAsync } from 'neverthrow'
import type { AccountsDeps } from './ports'
import { normaliseEmail } from './user'

export function isEmailRegistered(deps: Pick<AccountsDeps, 'uow'>, email: string): ResultAsync<boolean, never> {
  return ResultAsync.fromSafePromise(deps.uow.repos.users.isEmailTaken(normaliseEmail(email)))
}
