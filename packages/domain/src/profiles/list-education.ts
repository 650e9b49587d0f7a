import { ResultAsync } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import { listOwned } from './owned-records'
import type { ProfilesDeps } from './ports'
import type { Education } from './records'

export function listEducation(deps: ProfilesDeps, actor: Actor, input: { userId?: number }): ResultAsync<Education[], NotFound> {
  return new ResultAsync(listOwned(deps, actor, input.userId, (r) => r.education))
}
