import { ResultAsync } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import { listOwned } from './owned-records'
import type { ProfilesDeps } from './ports'
import type { Child } from './records'

/** A parent's own children; anyone else simply has none. */
export function listChildren(deps: ProfilesDeps, actor: Actor, input: { userId?: number }): ResultAsync<Child[], NotFound> {
  return new ResultAsync(listOwned(deps, actor, input.userId, (r) => r.children))
}
