import { ResultAsync } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import { listOwned } from './owned-records'
import type { ProfilesDeps } from './ports'
import type { MobileNumber } from './records'

export function listMobileNumbers(deps: ProfilesDeps, actor: Actor, input: { userId?: number }): ResultAsync<MobileNumber[], NotFound> {
  return new ResultAsync(listOwned(deps, actor, input.userId, (r) => r.mobileNumbers))
}
