import { ok } from 'neverthrow'
import { MINUTE_MS } from '../shared'
import type { BookingDeps, BookingRepos } from './ports'
import { planHoldExpiry } from './cancellation'
import { applySettlement } from './settlement'

/**
 * One lapsed hold: its lesson is cancelled (the slot is free), an open payment intent is
 * cancelled through the outbox. A booking paid meanwhile, or already closed, is left as it
 * is and stops being claimed. The caller holds the booking's lock.
 */
export async function expireHold(repos: BookingRepos, bookingId: number, context: { now: Date; holdMinutes: number }): Promise<boolean> {
  const a = await repos.bookings.lockById(bookingId)
  if (!a) return false
  // The hold the customer was given when booking, even if BOOKING_HOLD_MINUTES changed since.
  const holdMinutes =
    a.booking.holdExpiresAt === null ? context.holdMinutes : Math.round((a.booking.holdExpiresAt.getTime() - a.booking.createdAt.getTime()) / MINUTE_MS)
  const plan = planHoldExpiry({
    lesson: { state: a.lesson.state },
    booking: { state: a.booking.state, createdAt: a.booking.createdAt },
    holdMinutes,
    now: context.now,
  })
  if (plan.isErr()) {
    // Paid meanwhile, or already closed: nothing to expire, and no reason to claim it again.
    if (plan.error.type === 'InvalidStateTransition') await repos.bookings.updateBooking(a.booking.id, { holdExpiresAt: null })
    return false
  }
  await applySettlement(repos, a, plan.value, { actorId: null, now: context.now, event: 'hold_expired' })
  return true
}

/**
 * The hold worker: unpaid bookings past `hold_expires_at`, claimed one by one with SKIP
 * LOCKED, so instances may run it together.
 */
export async function expireHolds(deps: Pick<BookingDeps, 'uow' | 'clock' | 'config'>, limit = 100): Promise<{ expired: number }> {
  let expired = 0
  for (let i = 0; i < limit; i++) {
    const done = await deps.uow.run(async (repos) => {
      const now = deps.clock.now()
      const [id] = await repos.bookings.claimLapsedHolds(now, 1)
      if (id === undefined) return ok(false)
      if (await expireHold(repos, id, { now, holdMinutes: deps.config.holdMinutes })) expired++
      return ok(true)
    })
    if (!done._unsafeUnwrap()) break
  }
  return { expired }
}
