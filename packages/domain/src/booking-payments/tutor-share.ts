import { roundHalfUp, type Pence } from '../shared'
import type { PayoutAccountState } from '../payments'
import type { BookingAggregate, BookingPayment, PaymentRouting } from '../booking'
import type { BookingPaymentsRepos } from './ports'

/** The processor_sync topics that pay tutors: one separate transfer of a waiting share. */
export const PAYOUT_SYNC_TOPICS = { transfer: 'payout.transfer' } as const

/** Ties a booking's charge to any transfer made for it later. */
export const transferGroupOf = (bookingId: number): string => `booking-${bookingId}`

/**
 * Where a booking's payment goes. The tutor is owed the lesson price; the platform keeps the
 * rest of what the customer pays (the service fee less any coupon, which the platform funds).
 * A coupon larger than the fee leaves the platform nothing to keep and the tutor the whole
 * charge, since a processor fee can't be negative. With a payout-enabled account the charge
 * names it as its destination; without one the platform takes the charge alone and the
 * tutor's share waits for a separate transfer in the same transfer group.
 */
export const routeBookingPayment = (
  a: Pick<BookingAggregate, 'booking'>,
  amountPence: Pence,
  account: PayoutAccountState | undefined,
): PaymentRouting => ({
  destinationAccountId: account?.payoutsEnabled ? account.accountId : null,
  applicationFeePence: Math.max(0, amountPence - a.booking.lessonPricePence),
  transferGroup: transferGroupOf(a.booking.id),
})

/**
 * The platform's fee on part of a payment: in proportion to the part, so a late cancel's
 * partial capture leaves the tutor their share of what was kept, not that less the whole fee.
 */
export const feeOnPart = (routing: Pick<PaymentRouting, 'applicationFeePence'>, amountPence: Pence, partPence: Pence): Pence =>
  amountPence === 0 ? 0 : roundHalfUp(routing.applicationFeePence * partPence, amountPence)

/** What the processor holds of a payment now: captured, less refunds (a partial capture releases the rest). */
export const heldPence = (p: Pick<BookingPayment, 'amountPence' | 'capturedPence' | 'refundedPence'>): Pence =>
  Math.max(0, Math.min(p.capturedPence, p.amountPence - p.refundedPence))

/** The tutor's share of what the processor holds of a payment. */
export const tutorShareOf = (p: Pick<BookingPayment, 'amountPence' | 'capturedPence' | 'refundedPence' | 'routing'>): Pence => {
  const held = heldPence(p)
  return held - feeOnPart({ applicationFeePence: p.routing?.applicationFeePence ?? 0 }, p.amountPence, held)
}

/**
 * Writes one transfer delivery for each waiting share that may go now (its payment captured,
 * its tutor's account enabled), of one tutor or of all; each share is queued once.
 */
export async function queueReadyTransfers(repos: Pick<BookingPaymentsRepos, 'tutorTransfers' | 'outbox'>, tutorId: number | null, limit = 100): Promise<number> {
  const ids = await repos.tutorTransfers.claimReady(tutorId, limit)
  for (const transferId of ids) {
    await repos.outbox.enqueue({
      kind: 'processor_sync',
      topic: PAYOUT_SYNC_TOPICS.transfer,
      data: { transferId },
      dedupeKey: `${PAYOUT_SYNC_TOPICS.transfer}:${transferId}`,
    })
  }
  return ids.length
}
