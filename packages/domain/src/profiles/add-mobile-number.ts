import { err, ok, ResultAsync } from 'neverthrow'
import type { Actor, NotFound } from '../shared'
import { queueCustomerSync } from './customer-sync'
import { resolveOwner } from './owned-records'
import type { ProfilesDeps } from './ports'
import type { MobileNumber } from './records'

/** Fires MobileNumberUpdated: the newest number of a tutor is the one the processor holds. */
export function addMobileNumber(
  deps: ProfilesDeps,
  actor: Actor,
  input: { userId?: number; number: string },
): ResultAsync<MobileNumber, NotFound> {
  return new ResultAsync(
    deps.uow.run(async ({ personalRecords: { owners, mobileNumbers }, outbox }) => {
      const owner = await resolveOwner(owners, actor, input.userId)
      if (owner.isErr()) return err(owner.error)
      const mobile = await mobileNumbers.insert(owner.value.id, { number: input.number })
      await queueCustomerSync(outbox, owner.value, 'MobileNumberUpdated')
      return ok(mobile)
    }),
  )
}
