import { err, ok, ResultAsync, type Result } from 'neverthrow'
import { slotUnavailable, type SlotUnavailable } from '../availability'
import { approveReschedule, type LessonTransitionError } from '../lesson'
import { notFound, type Actor, type Forbidden, type NotFound, type ValidationFailed } from '../shared'
import { maySeeBooking, partiesOf, type BookingAggregate } from './booking-record'
import { checkRescheduleSlot, lessonStudentPoint } from './booking-slot'
import { announceBooking } from './integration-events'
import { movePaymentWithLesson } from './payment-times'
import type { BookingDeps } from './ports'
import { backingPayment, lessonEmailData, managementUrl } from './settlement'

/**
 * `PUT /api/lessons/{id}/approve`: the other party accepts; the lesson takes the suggested
 * times (still free, or 409) and is ACTIVE again, its payment's times moved with it; both
 * parties get the booked email, each with the booking's management link.
 */
export function approveLessonReschedule(
  deps: Pick<BookingDeps, 'uow' | 'clock' | 'availability' | 'links'>,
  actor: Actor,
  lessonId: number,
): ResultAsync<BookingAggregate, NotFound | Forbidden | LessonTransitionError | SlotUnavailable | ValidationFailed> {
  return new ResultAsync(run(deps, actor, lessonId))
}

async function run(
  deps: Pick<BookingDeps, 'uow' | 'clock' | 'availability' | 'links'>,
  actor: Actor,
  lessonId: number,
): Promise<Result<BookingAggregate, NotFound | Forbidden | LessonTransitionError | SlotUnavailable | ValidationFailed>> {
  // Before the transaction (CONTRACT §17); a failure is reported only to whoever may see the lesson.
  const studentPoint = await lessonStudentPoint(deps, lessonId)
  return deps.uow.run(async (repos) => {
    const now = deps.clock.now()
    const located = await repos.bookings.findByLessonId(lessonId)
    if (!located || !maySeeBooking(actor, located)) return err(notFound('lesson'))
    await repos.bookings.lockTutor(located.lesson.tutorId)
    const a = await repos.bookings.lockById(located.booking.id)
    if (!a) return err(notFound('lesson'))
    const step = approveReschedule({
      actor,
      parties: partiesOf(a),
      lesson: { state: a.lesson.state, proposedBy: a.lesson.proposedBy, proposalExpiresAt: a.lesson.proposalExpiresAt },
      now,
    })
    if (step.isErr()) return err(step.error)
    const start = a.lesson.suggestedStart
    const finish = a.lesson.suggestedFinish
    if (!start || !finish) throw new Error('a lesson in RESCHEDULE must carry suggested times')
    const free = await checkRescheduleSlot(deps, repos, a.lesson, { start, finish, studentPoint })
    if (free.isErr()) return err(free.error)
    const moved = await repos.bookings.updateLesson(a.lesson.id, {
      state: step.value.transition.to,
      start,
      finish,
      suggestedStart: null,
      suggestedFinish: null,
      proposedBy: null,
      proposalExpiresAt: null,
    })
    if (!moved) return err(slotUnavailable(start, finish))
    await movePaymentWithLesson(repos, backingPayment(await repos.payments.listByBooking(a.booking.id)), { start, finish }, { now, actorId: actor.id })
    const after = await repos.bookings.findById(a.booking.id)
    if (!after) return err(notFound('lesson'))
    for (const person of [after.tutor, after.booker]) {
      await repos.outbox.enqueue({
        kind: 'email',
        template: 'lesson_booked',
        to: person.email,
        data: lessonEmailData(after, { firstname: person.firstname, manageUrl: managementUrl(deps.links, after, person, now) }),
        dedupeKey: `lesson_booked:${a.lesson.id}:${start.getTime()}:${person.id}`,
      })
    }
    await repos.bookings.addEvent(a.booking.id, 'reschedule_approved', actor.id, { start: start.toISOString(), finish: finish.toISOString() })
    await announceBooking(repos, 'lesson.rescheduled', a, now)
    return ok(after)
  })
}
