import { err, ok, ResultAsync } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import { visible } from './owned-records'
import type { ProfilesDeps } from './ports'

/** Unregisters a device, e.g. on logout, so it receives no more pushes. */
export function removeUserDevice(deps: ProfilesDeps, actor: Actor, id: number): ResultAsync<void, NotFound> {
  return new ResultAsync(
    deps.uow.run(async ({ personalRecords: { devices } }) => {
      const found = visible(await devices.findById(id), actor, 'user device')
      if (found.isErr()) return err(found.error)
      await devices.remove(id)
      return ok(undefined)
    }),
  )
}
