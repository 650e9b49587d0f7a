import { err, ok, ResultAsync } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import { queueCustomerSync } from './customer-sync'
import { visible } from './owned-records'
import type { ProfilesDeps } from './ports'
import type { MobileNumber } from './records'

/** Fires MobileNumberUpdated (SPEC): a tutor's number reaches the processor through the outbox. */
export function updateMobileNumber(
  deps: ProfilesDeps,
  actor: Actor,
  input: { id: number; number?: string },
): ResultAsync<MobileNumber, NotFound> {
  return new ResultAsync(
    deps.uow.run(async ({ personalRecords: { owners, mobileNumbers }, outbox }) => {
      const found = visible(await mobileNumbers.findById(input.id), actor, 'mobile number')
      if (found.isErr()) return err(found.error)
      if (input.number === undefined) return ok(found.value)
      const mobile = await mobileNumbers.update(input.id, { number: input.number })
      const owner = await owners.find(mobile.userId)
      if (owner) await queueCustomerSync(outbox, owner, 'MobileNumberUpdated')
      return ok(mobile)
    }),
  )
}
