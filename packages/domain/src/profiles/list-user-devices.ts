import { err, ok, ResultAsync } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import { resolveOwner } from './owned-records'
import type { ProfilesDeps } from './ports'
import type { UserDevice } from './records'

export function listUserDevices(deps: ProfilesDeps, actor: Actor, input: { userId?: number }): ResultAsync<UserDevice[], NotFound> {
  const { personalRecords } = deps.uow.repos
  return new ResultAsync(
    resolveOwner(personalRecords.owners, actor, input.userId).then(async (owner) =>
      owner.isErr() ? err(owner.error) : ok(await personalRecords.devices.listByUser(owner.value.id)),
    ),
  )
}
