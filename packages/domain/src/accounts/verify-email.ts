import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { notFound, type NotFound } from '../shared'
import type { AccountsDeps } from './ports'
import type { User } from './user'

/** Reached through a signed link, so the id alone is trusted here. Repeating it is harmless. */
export function verifyEmail(deps: Pick<AccountsDeps, 'uow' | 'clock'>, userId: number): ResultAsync<User, NotFound> {
  return new ResultAsync(run(deps, userId))
}

async function run(deps: Pick<AccountsDeps, 'uow' | 'clock'>, userId: number): Promise<Result<User, NotFound>> {
  const { users } = deps.uow.repos
  const user = await users.findById(userId)
  if (!user) return err(notFound('user'))
  if (user.emailVerifiedAt) return ok(user)
  const now = deps.clock.now()
  await users.markEmailVerified(user.id, now)
  return ok({ ...user, emailVerifiedAt: now })
}
