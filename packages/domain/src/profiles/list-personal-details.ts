import { err, ok, ResultAsync } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import { resolveOwner } from './owned-records'
import type { ProfilesDeps } from './ports'
import type { PersonalDetails } from './records'

/** The personal details of the caller (or, for internal staff, of `userId`): one per user. */
export function listPersonalDetails(
  deps: ProfilesDeps,
  actor: Actor,
  input: { userId?: number },
): ResultAsync<PersonalDetails[], NotFound> {
  const { personalRecords } = deps.uow.repos
  return new ResultAsync(
    resolveOwner(personalRecords.owners, actor, input.userId).then(async (owner) =>
      owner.isErr() ? err(owner.error) : ok(await personalRecords.personalDetails.listByUser(owner.value.id)),
    ),
  )
}
