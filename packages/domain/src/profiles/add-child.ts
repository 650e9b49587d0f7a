import { err, ok, ResultAsync } from 'neverthrow'
import { forbidden, ROLE_IDS, type Forbidden, type NotFound, type Actor } from '../shared'
import { resolveOwner } from './owned-records'
import type { ProfilesDeps } from './ports'
import type { Child, ChildFields } from './records'

/** SPEC "Child: managed by parents": a child belongs to a parent account, never to anyone else. */
export function addChild(
  deps: ProfilesDeps,
  actor: Actor,
  input: { userId?: number; fields: ChildFields },
): ResultAsync<Child, NotFound | Forbidden> {
  return new ResultAsync(
    deps.uow.run(async ({ personalRecords: { owners, children } }) => {
      const owner = await resolveOwner(owners, actor, input.userId)
      if (owner.isErr()) return err(owner.error)
      if (owner.value.roleId !== ROLE_IDS.parent) return err(forbidden('Only parents manage children.'))
      return ok(await children.insert(owner.value.id, input.fields))
    }),
  )
}
