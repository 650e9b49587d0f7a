import { ResultAsync } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import { listOwned } from './owned-records'
import type { ProfilesDeps } from './ports'
import type { Profession } from './records'

export function listProfessions(deps: ProfilesDeps, actor: Actor, input: { userId?: number }): ResultAsync<Profession[], NotFound> {
  return new ResultAsync(listOwned(deps, actor, input.userId, (r) => r.professions))
}
