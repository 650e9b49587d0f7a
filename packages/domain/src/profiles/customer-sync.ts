import type { Outbox } from '../outbox'
import { ROLE_IDS } from '../shared'
import type { Owner } from './records'

export type CustomerSyncEvent = 'PersonalDetailUpdated' | 'AddressUpdated' | 'MobileNumberUpdated'

/** The outbox topic whose handler copies a tutor's date of birth, address and mobile to the processor. */
export const CUSTOMER_SYNC_TOPIC = 'customer.update'

/**
 * SPEC "Internal events": a tutor's date of birth, address and mobile number reach the
 * payment processor. Through the outbox, in the change's transaction: the processor being
 * down never fails the change, and nothing is lost. The handler sends the state current at
 * delivery, so repeats and reordering are harmless and no dedupe key is needed.
 */
export async function queueCustomerSync(outbox: Outbox, owner: Owner, event: CustomerSyncEvent): Promise<void> {
  if (owner.roleId !== ROLE_IDS.tutor) return
  await outbox.enqueue({ kind: 'processor_sync', topic: CUSTOMER_SYNC_TOPIC, data: { userId: owner.id, event } })
}
