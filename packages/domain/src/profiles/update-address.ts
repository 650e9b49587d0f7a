import { err, ok, ResultAsync } from 'neverthrow'
import { fieldError, type NotFound, type ValidationFailed, type Actor } from '../shared'
import { queueCustomerSync } from './customer-sync'
import { visible } from './owned-records'
import type { ProfilesDeps } from './ports'
import type { UserAddress, AddressFields } from './records'

/** Fires AddressUpdated: a tutor's address reaches the processor through the outbox. */
export function updateAddress(
  deps: ProfilesDeps,
  actor: Actor,
  input: { id: number; patch: Partial<AddressFields> },
): ResultAsync<UserAddress, NotFound | ValidationFailed> {
  return new ResultAsync(
    deps.uow.run(async ({ personalRecords: { addresses, owners, lookups }, outbox }) => {
      const found = visible(await addresses.findById(input.id), actor, 'address')
      if (found.isErr()) return err(found.error)
      if (input.patch.country !== undefined && !(await lookups.countryExists(input.patch.country))) {
        return err(fieldError('country', 'is not a known country code'))
      }
      const address = await addresses.update(input.id, input.patch)
      const owner = await owners.find(address.userId)
      if (owner) await queueCustomerSync(outbox, owner, 'AddressUpdated')
      return ok(address)
    }),
  )
}
