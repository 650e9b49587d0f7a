import { ResultAsync } from 'neverthrow'
import type { Actor, NotFound, ValidationFailed } from '../shared'
import { noCheck, updateOwned } from './owned-records'
import type { ProfilesDeps } from './ports'
import type { Child, ChildFields } from './records'

export function updateChild(
  deps: ProfilesDeps,
  actor: Actor,
  input: { id: number; patch: Partial<ChildFields> },
): ResultAsync<Child, NotFound | ValidationFailed> {
  return new ResultAsync(updateOwned(deps, actor, { ...input, resource: 'child' }, (r) => r.children, noCheck))
}
