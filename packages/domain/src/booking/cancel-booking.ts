import { err, ok, ResultAsync } from 'neverthrow'
import type { RefundTier } from '../pricing'
import { notFound, type Actor, type NotFound } from '../shared'
import { maySeeBooking, partiesOf, type BookingAggregate } from './booking-record'
import { planCancellation, type CancellationError } from './cancellation'
import type { BookingDeps } from './ports'
import { applySettlement, moneySnapshot } from './settlement'

/**
 * `PUT /api/bookings/{id}/cancel` and `PUT /api/lessons/{id}/cancel`: the domain plan decides
 * who may, the refund (policy tiers for a customer, 100 % for the tutor or staff) and the
 * processor calls; never-paid bookings are just cancelled.
 */
export function cancelBooking(
  deps: Pick<BookingDeps, 'uow' | 'clock'>,
  actor: Actor,
  target: { bookingId: number } | { lessonId: number },
): ResultAsync<BookingAggregate, NotFound | CancellationError> {
  return new ResultAsync(
    deps.uow.run(async (repos) => {
      const now = deps.clock.now()
      const located = 'bookingId' in target ? await repos.bookings.findById(target.bookingId) : await repos.bookings.findByLessonId(target.lessonId)
      if (!located || !maySeeBooking(actor, located)) return err(notFound('bookingId' in target ? 'booking' : 'lesson'))
      const a = await repos.bookings.lockById(located.booking.id)
      if (!a) return err(notFound('booking'))
      const tiers = await repos.catalog.cancellationPolicy()
      const policy: RefundTier[] | undefined = tiers.length > 0 ? tiers.map((t) => ({ hoursBeforeStart: t.hoursBeforeStart, refundPercent: t.refundPercent })) : undefined
      const plan = planCancellation({
        actor,
        parties: partiesOf(a),
        lesson: { state: a.lesson.state, start: a.lesson.start },
        booking: await moneySnapshot(repos, a),
        policy,
        now,
      })
      if (plan.isErr()) return err(plan.error)
      await applySettlement(repos, a, plan.value, { actorId: actor.id, now, event: `cancelled_by_${plan.value.canceller}` })
      const after = await repos.bookings.findById(a.booking.id)
      return after ? ok(after) : err(notFound('booking'))
    }),
  )
}
