import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { actsFor, forbidden, notFound, type Forbidden, type NotFound } from '../shared'
import type { AccountsDeps } from './ports'
import type { User } from './user'

export function getUser(deps: Pick<AccountsDeps, 'uow'>, actor: User, id: number): ResultAsync<User, NotFound | Forbidden> {
  return new ResultAsync(run(deps, actor, id))
}

async function run(deps: Pick<AccountsDeps, 'uow'>, actor: User, id: number): Promise<Result<User, NotFound | Forbidden>> {
  // The actor was read live for this very request; reading it again would change nothing.
  if (actor.id === id) return ok(actor)
  const user = await deps.uow.repos.users.findById(id)
  if (!user) return err(notFound('user'))
  if (!actsFor(actor, id)) return err(forbidden('only the user or an internal user may see this account'))
  return ok(user)
}
