import { ok } from 'neverthrow'
import type { BookingDeps } from './ports'
import { planHoldExpiry } from './cancellation'
import { applySettlement } from './settlement'

/**
 * The hold worker: unpaid bookings past `hold_expires_at` cancel their lesson, so the slot
 * is free again; an open payment intent is cancelled through the outbox. Claimed one by one
 * with SKIP LOCKED, so instances may run it together.
 */
export async function expireHolds(deps: Pick<BookingDeps, 'uow' | 'clock' | 'config'>, limit = 100): Promise<{ expired: number }> {
  let expired = 0
  for (let i = 0; i < limit; i++) {
    const done = await deps.uow.run(async (repos) => {
      const now = deps.clock.now()
      const [id] = await repos.bookings.claimLapsedHolds(now, 1)
      if (id === undefined) return ok(false)
      const a = await repos.bookings.lockById(id)
      if (!a) return ok(true)
      const plan = planHoldExpiry({
        lesson: { state: a.lesson.state },
        booking: { state: a.booking.state, createdAt: a.booking.createdAt },
        holdMinutes: deps.config.holdMinutes,
        now,
      })
      if (plan.isErr()) {
        // Paid meanwhile, or already cancelled: nothing to expire; stop claiming it.
        await repos.bookings.updateBooking(a.booking.id, { holdExpiresAt: null })
        return ok(true)
      }
      await applySettlement(repos, a, plan.value, { actorId: null, now, event: 'hold_expired' })
      expired++
      return ok(true)
    })
    if (!done._unsafeUnwrap()) break
  }
  return { expired }
}
