import { ResultAsync } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import { removeOwned } from './owned-records'
import type { ProfilesDeps } from './ports'

export function removeProfession(deps: ProfilesDeps, actor: Actor, id: number): ResultAsync<void, NotFound> {
  return new ResultAsync(removeOwned(deps, actor, { id, resource: 'profession' }, (r) => r.professions))
}
