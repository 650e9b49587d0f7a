import { okAsync, ResultAsync } from 'neverthrow'
import type { AccountsDeps } from './ports'

export function logOut(deps: Pick<AccountsDeps, 'uow' | 'secrets' | 'clock'>, token: string): ResultAsync<void, never> {
  const revoked = deps.uow.repos.accessTokens.revoke(deps.secrets.hash(token), deps.clock.now())
  return ResultAsync.fromSafePromise(revoked).andThen(() => okAsync(undefined))
}
