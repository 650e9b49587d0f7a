import { transitionLesson } from '../lesson'
import type { BookingAggregate } from './booking-record'
import type { BookingRepos } from './ports'
import { applySettlement } from './settlement'
import { transitionBooking } from './transitions'

/**
 * Cancels a lesson whose payment took nothing (an authorisation declined, or never confirmed
 * by the customer): nothing to refund, both parties emailed, `event` on the booking's timeline.
 */
export async function cancelUntakenLesson(repos: BookingRepos, a: BookingAggregate, now: Date, event: string): Promise<void> {
  const lesson = transitionLesson(a.lesson.state, 'cancel', {})
  const booking = transitionBooking(a.booking.state, 'cancel', { paidPence: 0, refundPence: 0, lessonState: a.lesson.state })
  if (lesson.isErr() || booking.isErr()) throw new Error(`a lesson nothing was taken for refused cancel (${event})`)
  await applySettlement(
    repos,
    { ...a, payment: null },
    { lesson: lesson.value, booking: booking.value, refundPence: 0, effects: lesson.value.effects.filter((e) => e.type === 'QueueEmail') },
    { actorId: null, now, event },
  )
}
