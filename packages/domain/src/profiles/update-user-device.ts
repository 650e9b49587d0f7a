import { err, ok, ResultAsync } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import { visible } from './owned-records'
import type { ProfilesDeps } from './ports'
import type { DevicePlatform, UserDevice } from './records'

/**
 * The push provider rotated the device's token: the device keeps its id and takes the new
 * token, which leaves any other row that held it.
 */
export function updateUserDevice(
  deps: ProfilesDeps,
  actor: Actor,
  input: { id: number; patch: { platform?: DevicePlatform; pushToken?: string } },
): ResultAsync<UserDevice, NotFound> {
  return new ResultAsync(
    deps.uow.run(async ({ personalRecords: { devices } }) => {
      const found = visible(await devices.findById(input.id), actor, 'user device')
      if (found.isErr()) return err(found.error)
      if (input.patch.pushToken !== undefined) await devices.releaseToken(input.patch.pushToken, input.id)
      return ok(await devices.update(input.id, input.patch))
    }),
  )
}
