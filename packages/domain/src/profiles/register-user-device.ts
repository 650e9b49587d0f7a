import { err, ok, ResultAsync } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import { resolveOwner } from './owned-records'
import type { ProfilesDeps } from './ports'
import type { DevicePlatform, UserDevice } from './records'

/**
 * Registers a push token for the owner. A token names one app install: registering one
 * another user held moves it here, so a shared phone never shows the last user's pushes.
 * Registering a token again is harmless and answers the same device.
 */
export function registerUserDevice(
  deps: ProfilesDeps,
  actor: Actor,
  input: { userId?: number; platform: DevicePlatform; pushToken: string },
): ResultAsync<UserDevice, NotFound> {
  return new ResultAsync(
    deps.uow.run(async ({ personalRecords: { owners, devices } }) => {
      const owner = await resolveOwner(owners, actor, input.userId)
      if (owner.isErr()) return err(owner.error)
      return ok(await devices.claimToken(owner.value.id, { platform: input.platform, pushToken: input.pushToken }))
    }),
  )
}
