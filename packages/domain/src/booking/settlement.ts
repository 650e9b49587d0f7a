import type { LinkBuilder } from '../accounts'
import type { LessonEffect, LessonTransition } from '../lesson'
import { formatPence, type Pence } from '../shared'
import type { BookingAggregate, Person } from './booking-record'
import type { BookingPatch, BookingRepos, LessonPatch } from './ports'
import type { BookingEffect, BookingTransition } from './transitions'

/** The processor_sync topics through which money moves after the decision is committed. */
export const PAYMENT_SYNC_TOPICS = {
  refund: 'payment.refund',
  capture: 'payment.capture_part',
  cancel: 'payment.cancel',
} as const

type Plan = { lesson: LessonTransition; booking: BookingTransition; refundPence?: Pence; effects: (LessonEffect | BookingEffect)[] }

export const lessonEmailData = (a: BookingAggregate, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  lessonId: a.lesson.id,
  bookingId: a.booking.id,
  subject: a.subject.title,
  start: a.lesson.start.toISOString(),
  finish: a.lesson.finish.toISOString(),
  tutorName: `${a.tutor.firstname} ${a.tutor.lastname}`,
  studentName: `${a.booker.firstname} ${a.booker.lastname}`,
  ...extra,
})

/**
 * The management link of a booking email (CONTRACT §14): the booking's page with a `secret`
 * that lets this recipient view and cancel this booking, and nothing else, until the lesson's
 * finish. The same secret is taken by `PUT /api/bookings/{id}/cancel`.
 */
export const managementUrl = (links: LinkBuilder, a: BookingAggregate, person: Person): string =>
  links.bookingSecretUrl(`/api/bookings/${a.booking.id}`, { userId: person.id, bookingId: a.booking.id }, a.lesson.finish)

const participants = (a: BookingAggregate): Person[] => [a.tutor, a.booker]

/**
 * Writes a settled plan: the lesson's and the booking's new states in this transaction, the
 * money through the outbox (`processor_sync`, one dedupe key per payment and action, which
 * is also the processor's idempotency key), and the emails. A processor that is down fails
 * nothing here: the outbox retries until the call goes through, and the booking already
 * says what the customer is owed.
 */
export async function applySettlement(
  repos: BookingRepos,
  a: BookingAggregate,
  plan: Plan,
  context: { actorId: number | null; now: Date; event: string },
): Promise<void> {
  const lessonPatch: LessonPatch = { state: plan.lesson.to }
  if (plan.lesson.to === 'CANCELLED') Object.assign(lessonPatch, { cancelledAt: context.now, cancelledBy: context.actorId })
  if (plan.effects.some((e) => e.type === 'ClearSuggestedTimes')) {
    Object.assign(lessonPatch, { suggestedStart: null, suggestedFinish: null, proposedBy: null, proposalExpiresAt: null })
  }
  await repos.bookings.updateLesson(a.lesson.id, lessonPatch)
  const bookingPatch: BookingPatch = { state: plan.booking.to }
  if (plan.refundPence !== undefined && a.booking.state !== 'AWAITING_PAYMENT') bookingPatch.refundedPence = plan.refundPence
  await repos.bookings.updateBooking(a.booking.id, bookingPatch)

  const payment = a.payment
  for (const effect of plan.effects) {
    if (effect.type !== 'Refund' && effect.type !== 'CapturePayment' && effect.type !== 'VoidAuthorization' && effect.type !== 'CancelPaymentIntent') continue
    if (!payment || payment.status === 'canceled') continue
    if (!payment.intentId) {
      // Scheduled for a later authorisation, or never sent: nothing at the processor to undo.
      await repos.payments.update(payment.id, { status: 'canceled' })
      continue
    }
    const topic =
      effect.type === 'Refund' ? PAYMENT_SYNC_TOPICS.refund : effect.type === 'CapturePayment' ? PAYMENT_SYNC_TOPICS.capture : PAYMENT_SYNC_TOPICS.cancel
    const amountPence = 'amountPence' in effect ? effect.amountPence : null
    await repos.outbox.enqueue({
      kind: 'processor_sync',
      topic,
      data: { paymentId: payment.id, amountPence },
      dedupeKey: `${topic}:${payment.id}`,
    })
  }
  for (const effect of plan.effects) {
    if (effect.type !== 'QueueEmail' || effect.to !== 'participants') continue
    for (const person of participants(a)) {
      await repos.outbox.enqueue({
        kind: 'email',
        template: effect.template,
        to: person.email,
        data: lessonEmailData(a, {
          firstname: person.firstname,
          refund: plan.refundPence === undefined ? null : formatPence(plan.refundPence),
          reason: context.event,
        }),
        dedupeKey: `${effect.template}:${a.lesson.id}:${context.event}:${person.id}:${a.lesson.start.getTime()}`,
      })
    }
  }
  await repos.bookings.addEvent(a.booking.id, context.event, context.actorId, {
    lesson_state: plan.lesson.to,
    booking_state: plan.booking.to,
    ...(plan.refundPence === undefined ? {} : { refund: formatPence(plan.refundPence) }),
  })
}
