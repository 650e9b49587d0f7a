import { err, ok, ResultAsync, type Result } from 'neverthrow'
import type { SlotUnavailable } from '../availability'
import { proposeReschedule, type LessonTransitionError } from '../lesson'
import { MINUTE_MS, notFound, validationFailed, type Actor, type Forbidden, type NotFound, type ValidationFailed } from '../shared'
import { maySeeBooking, partiesOf, type BookingAggregate } from './booking-record'
import { checkRescheduleSlot } from './booking-slot'
import type { BookingDeps } from './ports'
import { lessonEmailData, managementUrl } from './settlement'

/**
 * `PUT /api/lessons/{id}/edit`: either party proposes new times at least 72 hours before the
 * original start; the proposed time must be free (this lesson aside). The other party gets
 * an email with Accept and Decline links, signed for them until the proposal expires.
 * A proposal moves the lesson, it does not resize it (CONTRACT §15): the price was paid for
 * the booked length.
 */
export function proposeLessonReschedule(
  deps: Pick<BookingDeps, 'uow' | 'clock' | 'links' | 'availability'>,
  actor: Actor,
  input: { lessonId: number; start: Date; finish: Date },
): ResultAsync<BookingAggregate, NotFound | Forbidden | LessonTransitionError | SlotUnavailable | ValidationFailed> {
  return new ResultAsync(
    deps.uow.run(async (repos) => {
      const now = deps.clock.now()
      const located = await repos.bookings.findByLessonId(input.lessonId)
      if (!located || !maySeeBooking(actor, located)) return err(notFound('lesson'))
      await repos.bookings.lockTutor(located.lesson.tutorId)
      const a = await repos.bookings.lockById(located.booking.id)
      if (!a) return err(notFound('lesson'))
      const step = proposeReschedule({
        actor,
        parties: partiesOf(a),
        lesson: { state: a.lesson.state, start: a.lesson.start },
        proposedStart: input.start,
        proposedFinish: input.finish,
        now,
      })
      if (step.isErr()) return err(step.error)
      const length = keepsLength(a.lesson, input)
      if (length.isErr()) return err(length.error)
      const free = await checkRescheduleSlot(deps, repos, a.lesson, { start: input.start, finish: input.finish })
      if (free.isErr()) return err(free.error)
      const set = step.value.transition.effects.find((e) => e.type === 'SetSuggestedTimes')
      if (!set || set.type !== 'SetSuggestedTimes') throw new Error('a proposal must set the suggested times')
      await repos.bookings.updateLesson(a.lesson.id, {
        state: step.value.transition.to,
        suggestedStart: set.start,
        suggestedFinish: set.finish,
        proposedBy: step.value.side,
        proposalExpiresAt: set.expiresAt,
      })
      const other = step.value.side === 'tutor' ? a.booker : a.tutor
      const link = (action: 'approve' | 'decline') =>
        deps.links.signedUrl(`/api/lessons/${a.lesson.id}/respond`, { action, uid: String(other.id) }, set.expiresAt)
      await repos.outbox.enqueue({
        kind: 'email',
        template: 'lesson_reschedule',
        to: other.email,
        data: lessonEmailData(a, {
          firstname: other.firstname,
          suggestedStart: set.start.toISOString(),
          suggestedFinish: set.finish.toISOString(),
          expiresAt: set.expiresAt.toISOString(),
          acceptUrl: link('approve'),
          declineUrl: link('decline'),
          manageUrl: managementUrl(deps.links, a, other),
        }),
        dedupeKey: `lesson_reschedule:${a.lesson.id}:${set.start.getTime()}:${now.getTime()}`,
      })
      await repos.bookings.addEvent(a.booking.id, 'reschedule_proposed', actor.id, {
        by: step.value.side,
        suggested_start: set.start.toISOString(),
        suggested_finish: set.finish.toISOString(),
      })
      const after = await repos.bookings.findById(a.booking.id)
      return after ? ok(after) : err(notFound('lesson'))
    }),
  )
}

/** The proposed times span exactly the booked lesson's length (a 422 on `suggested_finish` otherwise). */
function keepsLength(lesson: { start: Date; finish: Date }, proposed: { start: Date; finish: Date }): Result<void, ValidationFailed> {
  const booked = lesson.finish.getTime() - lesson.start.getTime()
  if (proposed.finish.getTime() - proposed.start.getTime() === booked) return ok(undefined)
  return err(validationFailed({ suggested_finish: [`must keep the lesson's length of ${booked / MINUTE_MS} minutes after suggested_start`] }))
}
