import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { actsFor, notFound, type NotFound } from '../shared'
import type { AccountsDeps } from './ports'
import type { User } from './user'

/** Another user's account is not found, exactly as an unknown id is, so ids reveal nobody. */
export function getUser(deps: Pick<AccountsDeps, 'uow'>, actor: User, id: number): ResultAsync<User, NotFound> {
  return new ResultAsync(run(deps, actor, id))
}

async function run(deps: Pick<AccountsDeps, 'uow'>, actor: User, id: number): Promise<Result<User, NotFound>> {
  // The actor was read live for this very request; reading it again would change nothing.
  if (actor.id === id) return ok(actor)
  if (!actsFor(actor, id)) return err(notFound('user'))
  const user = await deps.uow.repos.users.findById(id)
  return user ? ok(user) : err(notFound('user'))
}
