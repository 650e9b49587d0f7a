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
 * charge, since a processor fee can't be negative; the rest of the price goes to the tutor
 * by a transfer from the platform's balance (separateTransferOf). With a payout-enabled
 * account the charge names it as its destination; without one the platform takes the charge
 * alone and the tutor's share waits for a separate transfer in the same transfer group.
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
 * What the tutor is owed of a payment (CONTRACT §15): the lesson price whatever the coupon, in
 * proportion to what the processor still holds of the payment (a refund takes its part back).
 * A payment of nothing (a 100 % coupon) owes the whole price unless the booking was refunded.
 */
export const tutorOwedOf = (
  p: Pick<BookingPayment, 'amountPence' | 'capturedPence' | 'refundedPence' | 'status'>,
  booking: { lessonPricePence: Pence; refunded: boolean },
): Pence => {
  if (p.amountPence === 0) return p.status === 'succeeded' && !booking.refunded ? booking.lessonPricePence : 0
  return roundHalfUp(booking.lessonPricePence * heldPence(p), p.amountPence)
}

/**
 * What the tutor gets by a separate transfer: what they are owed less what the charge itself
 * sends to their account (its destination, less the platform's fee). Without a destination
 * that is all of it; with one, what a coupon larger than the fee took off, which the platform
 * pays from its own balance.
 */
export const separateTransferOf = (
  p: Pick<BookingPayment, 'amountPence' | 'capturedPence' | 'refundedPence' | 'status' | 'routing'>,
  booking: { lessonPricePence: Pence; refunded: boolean },
): Pence => Math.max(0, tutorOwedOf(p, booking) - (p.routing?.destinationAccountId ? tutorShareOf(p) : 0))

/** Whether a payment leaves part of the tutor's price to a separate transfer: no destination, or a coupon beyond the fee. */
export const needsSeparateTransfer = (routing: PaymentRouting, amountPence: Pence, lessonPricePence: Pence): boolean =>
  routing.destinationAccountId === null || amountPence < lessonPricePence

/**
 * Writes one transfer delivery for each waiting share that may go now (its payment captured,
 * its tutor's account enabled), of one tutor or of all; each share is queued once.
 */
export async function queueReadyTransfers(repos: Pick<BookingPaymentsRepos, 'tutorTransfers' | 'outbox'>, tutorId: number | null, now: Date, limit = 100): Promise<number> {
  const ids = await repos.tutorTransfers.claimReady(tutorId, now, limit)
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
