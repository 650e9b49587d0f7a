import { ok } from 'neverthrow'
import { planRescheduleExpiry } from './cancellation'
import type { BookingDeps } from './ports'
import { applySettlement, moneySnapshot } from './settlement'

/**
 * `pnpm cli lessons:expire-reschedules` and its periodic job: proposals past their expiry
 * cancel the lesson with a full refund. Claimed one by one with SKIP LOCKED.
 */
export async function expireReschedules(deps: Pick<BookingDeps, 'uow' | 'clock'>, limit = 100): Promise<{ expired: number }> {
  let expired = 0
  for (let i = 0; i < limit; i++) {
    const done = await deps.uow.run(async (repos) => {
      const now = deps.clock.now()
      const [id] = await repos.bookings.claimExpiredProposals(now, 1)
      if (id === undefined) return ok(false)
      const a = await repos.bookings.lockById(id)
      if (!a || a.lesson.proposalExpiresAt === null) return ok(true)
      const plan = planRescheduleExpiry({
        lesson: { state: a.lesson.state, expiresAt: a.lesson.proposalExpiresAt },
        booking: await moneySnapshot(repos, a),
        now,
      })
      if (plan.isErr()) return ok(true)
      await applySettlement(repos, a, plan.value, { actorId: null, now, event: 'reschedule_expired' })
      expired++
      return ok(true)
    })
    if (!done._unsafeUnwrap()) break
  }
  return { expired }
}
