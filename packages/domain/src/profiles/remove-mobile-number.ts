import { err, ok, ResultAsync } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import { queueCustomerSync } from './customer-sync'
import { visible } from './owned-records'
import type { ProfilesDeps } from './ports'

/** Fires MobileNumberUpdated too: the processor then holds the next newest number, or none. */
export function removeMobileNumber(deps: ProfilesDeps, actor: Actor, id: number): ResultAsync<void, NotFound> {
  return new ResultAsync(
    deps.uow.run(async ({ personalRecords: { owners, mobileNumbers }, outbox }) => {
      const found = visible(await mobileNumbers.findById(id), actor, 'mobile number')
      if (found.isErr()) return err(found.error)
      await mobileNumbers.remove(id, deps.clock.now())
      const owner = await owners.find(found.value.userId)
      if (owner) await queueCustomerSync(outbox, owner, 'MobileNumberUpdated')
      return ok(undefined)
    }),
  )
}
