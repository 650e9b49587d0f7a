import { ResultAsync } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import { removeOwned } from './owned-records'
import type { ProfilesDeps } from './ports'

export function removeSocialLink(deps: ProfilesDeps, actor: Actor, id: number): ResultAsync<void, NotFound> {
  return new ResultAsync(removeOwned(deps, actor, { id, resource: 'social link' }, (r) => r.socialLinks))
}
