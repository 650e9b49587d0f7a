import { err, ok, ResultAsync } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import { resolveOwner } from './owned-records'
import type { ProfilesDeps } from './ports'
import type { UserProfile } from './records'

/** CONTRACT §13: the caller's profile (one per user, made at registration), as a list. */
export function listProfiles(deps: ProfilesDeps, actor: Actor, input: { userId?: number }): ResultAsync<UserProfile[], NotFound> {
  const { personalRecords } = deps.uow.repos
  return new ResultAsync(
    resolveOwner(personalRecords.owners, actor, input.userId).then(async (owner) =>
      owner.isErr() ? err(owner.error) : ok(await personalRecords.profiles.listByUser(owner.value.id)),
    ),
  )
}
