import { err, ok, ResultAsync } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import { queueCustomerSync } from './customer-sync'
import { visible } from './owned-records'
import type { ProfilesDeps } from './ports'

/** Fires AddressUpdated too: the processor's copy of a tutor's address is cleared. */
export function removeAddress(deps: ProfilesDeps, actor: Actor, id: number): ResultAsync<void, NotFound> {
  return new ResultAsync(
    deps.uow.run(async ({ personalRecords: { addresses, owners }, outbox }) => {
      const found = visible(await addresses.findById(id), actor, 'address')
      if (found.isErr()) return err(found.error)
      await addresses.remove(id, deps.clock.now())
      const owner = await owners.find(found.value.userId)
      if (owner) await queueCustomerSync(outbox, owner, 'AddressUpdated')
      return ok(undefined)
    }),
  )
}
