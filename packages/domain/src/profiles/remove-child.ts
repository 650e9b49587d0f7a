import { ResultAsync } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import { removeOwned } from './owned-records'
import type { ProfilesDeps } from './ports'

/** A soft delete: lessons keep pointing at the child, who no longer shows in any list. */
export function removeChild(deps: ProfilesDeps, actor: Actor, id: number): ResultAsync<void, NotFound> {
  return new ResultAsync(removeOwned(deps, actor, { id, resource: 'child' }, (r) => r.children))
}
