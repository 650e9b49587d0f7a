import { ResultAsync } from 'neverthrow'
import type { NotFound } from '../shared'
import { removeOwned } from './owned-records'
import type { ProfilesDeps } from './ports'
import type { Actor } from './records'

export function removeProfession(deps: ProfilesDeps, actor: Actor, id: number): ResultAsync<void, NotFound> {
  return new ResultAsync(removeOwned(deps, actor, { id, resource: 'profession' }, (r) => r.professions))
}
