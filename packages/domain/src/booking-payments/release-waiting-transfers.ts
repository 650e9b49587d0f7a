import { ok } from 'neverthrow'
import type { BookingPaymentsDeps } from './ports'
import { queueReadyTransfers } from './tutor-share'

/**
 * The sweep beside `payments:capture-due`: every tutor share whose payment is now captured
 * and whose account can now be paid out is queued for its separate transfer, once. The
 * `account.updated` webhook does the same for one tutor at once; this catches a capture
 * after the account was enabled, and an account enabled by linking it (the offline processor).
 */
export async function releaseWaitingTransfers(deps: Pick<BookingPaymentsDeps, 'uow' | 'clock'>, limit = 100): Promise<{ queued: number }> {
  const result = await deps.uow.run(async (repos) => ok({ queued: await queueReadyTransfers(repos, null, deps.clock.now(), limit) }))
  return result._unsafeUnwrap()
}
