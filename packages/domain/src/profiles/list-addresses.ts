import { ResultAsync } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import { listOwned } from './owned-records'
import type { ProfilesDeps } from './ports'
import type { UserAddress } from './records'

export function listAddresses(deps: ProfilesDeps, actor: Actor, input: { userId?: number }): ResultAsync<UserAddress[], NotFound> {
  return new ResultAsync(listOwned(deps, actor, input.userId, (r) => r.addresses))
}
