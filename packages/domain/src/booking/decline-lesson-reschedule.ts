import { err, ok, ResultAsync } from 'neverthrow'
import { type LessonTransitionError } from '../lesson'
import { notFound, type Actor, type Forbidden, type InvalidStateTransition, type NotFound } from '../shared'
import { maySeeBooking, partiesOf, type BookingAggregate } from './booking-record'
import { planRescheduleDecline } from './cancellation'
import type { BookingDeps } from './ports'
import { applySettlement, moneySnapshot } from './settlement'
import type { BookingTransitionError } from './transitions'

/** `PUT /api/lessons/{id}/decline`: the other party declines; the lesson is cancelled with a full refund. */
export function declineLessonReschedule(
  deps: Pick<BookingDeps, 'uow' | 'clock'>,
  actor: Actor,
  lessonId: number,
): ResultAsync<BookingAggregate, NotFound | Forbidden | InvalidStateTransition | LessonTransitionError | BookingTransitionError> {
  return new ResultAsync(
    deps.uow.run(async (repos) => {
      const located = await repos.bookings.findByLessonId(lessonId)
      if (!located || !maySeeBooking(actor, located)) return err(notFound('lesson'))
      const a = await repos.bookings.lockById(located.booking.id)
      if (!a) return err(notFound('lesson'))
      const plan = planRescheduleDecline({
        actor,
        parties: partiesOf(a),
        lesson: { state: a.lesson.state, proposedBy: a.lesson.proposedBy },
        booking: await moneySnapshot(repos, a),
      })
      if (plan.isErr()) return err(plan.error)
      await applySettlement(repos, a, plan.value, { actorId: actor.id, now: deps.clock.now(), event: 'reschedule_declined' })
      const after = await repos.bookings.findById(a.booking.id)
      return after ? ok(after) : err(notFound('lesson'))
    }),
  )
}
