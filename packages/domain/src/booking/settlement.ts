import type { LinkBuilder } from '../accounts'
import type { LessonEffect, LessonTransition } from '../lesson'
import { DAY_MS, formatPence, type Pence } from '../shared'
import type { BookingAggregate, BookingPayment, Person } from './booking-record'
import { announceBooking } from './integration-events'
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

/** How long a link emailed after its lesson's finish (a note, a late reschedule) stays valid (CONTRACT §15). */
export const LATE_LINK_DAYS = 7

/**
 * The management link of a booking email (CONTRACT §14): the booking's page with a `secret`
 * that lets this recipient view and cancel this booking, and nothing else, until the lesson's
 * finish, or 7 days from sending when it is sent after the finish (CONTRACT §15). The same
 * secret is taken by `PUT /api/bookings/{id}/cancel`.
 */
export const managementUrl = (links: LinkBuilder, a: BookingAggregate, person: Person, now: Date): string =>
  links.bookingSecretUrl(
    `/api/bookings/${a.booking.id}`,
    { userId: person.id, bookingId: a.booking.id },
    a.lesson.finish.getTime() > now.getTime() ? a.lesson.finish : new Date(now.getTime() + LATE_LINK_DAYS * DAY_MS),
  )

const participants = (a: BookingAggregate): Person[] => [a.tutor, a.booker]

/**
 * Of a booking's payments (one per attempt), the one its money rests on: the latest captured,
 * else the latest authorised. None when nothing was ever charged (unpaid, or scheduled for a
 * later authorisation).
 */
export const chargedPayment = (payments: readonly BookingPayment[]): BookingPayment | null =>
  payments.findLast((p) => p.status === 'succeeded') ?? payments.findLast((p) => p.status === 'requires_capture') ?? null

/**
 * A payment a paid booking may rest on (CONTRACT §15): an authorisation with a capture time, a
 * capture, a confirmed card setup with its authorisation scheduled, or that authorisation
 * waiting for the customer until its deadline. A released attempt is none of these, even
 * before the processor has confirmed the release.
 */
export const isLivePayment = (p: Pick<BookingPayment, 'status' | 'captureAt' | 'authorizeAt'>): boolean =>
  p.status === 'succeeded' ||
  p.status === 'scheduled' ||
  (p.status === 'requires_capture' && p.captureAt !== null) ||
  ((p.status === 'requires_action' || p.status === 'requires_payment_method') && p.authorizeAt !== null)

/** The live payment a booking rests on (the latest, should a bug ever leave two), or none. */
export const backingPayment = (payments: readonly BookingPayment[]): BookingPayment | null => payments.findLast(isLivePayment) ?? null

/** What the booker's card holds or gave for the booking, so a refund is never more than was charged. */
export const chargedPence = (payments: readonly BookingPayment[]): Pence => {
  const p = chargedPayment(payments)
  if (!p) return 0
  return p.status === 'succeeded' ? p.capturedPence - p.refundedPence : p.amountPence
}

/** The money of a booking whose lesson ended, as the settlement planners want it. */
export async function moneySnapshot(repos: Pick<BookingRepos, 'payments'>, a: BookingAggregate) {
  return { state: a.booking.state, paidPence: chargedPence(await repos.payments.listByBooking(a.booking.id)) }
}

/**
 * Another attempt of a settled booking (superseded, or a 3-D Secure step finished after the
 * booker paid again): whatever it holds or took goes back in full. `occasion` tells this
 * release from an earlier one of the same intent (a webhook saying it holds money again).
 */
export async function releaseAttempt(repos: Pick<BookingRepos, 'payments' | 'outbox'>, p: BookingPayment, occasion?: string): Promise<void> {
  if (p.status === 'canceled') return
  if (!p.intentId) {
    // Scheduled for a later authorisation, or a card setup still waiting for the customer:
    // nothing at the processor to undo.
    if (p.status === 'scheduled' || p.status === 'requires_action') await repos.payments.update(p.id, { status: 'canceled', authorizeAt: null, captureAt: null, retryAt: null })
    // A scheduled authorisation whose call never answered may have made an intent all the same
    // (its event need not find the row, whose card may have changed since): looked up and voided.
    if (p.status === 'scheduled' && p.failedAttempts > 0) {
      const topic = PAYMENT_SYNC_TOPICS.cancel
      await repos.outbox.enqueue({ kind: 'processor_sync', topic, data: { paymentId: p.id, amountPence: null, unanswered: true }, dedupeKey: `${topic}:${p.id}:unanswered${occasion ? `:${occasion}` : ''}` })
    }
    // The creating call's answer never came (cut off): the processor may hold an authorisation
    // made for this row. The cancel looks it up by the row's id, voids it, and closes the row.
    if (p.status === 'requires_confirmation') {
      await repos.payments.update(p.id, { authorizeAt: null, captureAt: null, retryAt: null })
      const topic = PAYMENT_SYNC_TOPICS.cancel
      await repos.outbox.enqueue({ kind: 'processor_sync', topic, data: { paymentId: p.id, amountPence: null }, dedupeKey: `${topic}:${p.id}:unanswered${occasion ? `:${occasion}` : ''}` })
    }
    return
  }
  const kept = p.capturedPence - p.refundedPence
  const [topic, amountPence] = p.status === 'succeeded' ? [PAYMENT_SYNC_TOPICS.refund, kept] : [PAYMENT_SYNC_TOPICS.cancel, null]
  if (p.status === 'succeeded' && kept <= 0) return
  await repos.payments.update(p.id, { authorizeAt: null, captureAt: null, retryAt: null })
  // The intent is named: a payment may have had another (a second answer for one row), which this release must not touch.
  await repos.outbox.enqueue({ kind: 'processor_sync', topic, data: { paymentId: p.id, amountPence, intentId: p.intentId }, dedupeKey: `${topic}:${p.id}:${p.intentId}${occasion ? `:${occasion}` : ''}` })
}

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

  // The plan's money effects apply to the payment the booking's money rests on; every other
  // attempt is released whole, so no earlier authorisation is left holding the card.
  const payments = await repos.payments.listByBooking(a.booking.id)
  const charged = chargedPayment(payments)
  let settled = false
  for (const effect of plan.effects) {
    if (effect.type !== 'Refund' && effect.type !== 'CapturePayment' && effect.type !== 'VoidAuthorization' && effect.type !== 'CancelPaymentIntent') continue
    if (!charged?.intentId || settled) continue
    settled = true
    const topic =
      effect.type === 'Refund' ? PAYMENT_SYNC_TOPICS.refund : effect.type === 'CapturePayment' ? PAYMENT_SYNC_TOPICS.capture : PAYMENT_SYNC_TOPICS.cancel
    const amountPence = 'amountPence' in effect ? effect.amountPence : null
    await repos.payments.update(charged.id, { captureAt: null, retryAt: null })
    await repos.outbox.enqueue({
      kind: 'processor_sync',
      topic,
      data: { paymentId: charged.id, amountPence },
      dedupeKey: `${topic}:${charged.id}`,
    })
  }
  for (const p of payments) if (p.id !== charged?.id || !settled) await releaseAttempt(repos, p)
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
  if (plan.lesson.to === 'CANCELLED') await announceBooking(repos, 'booking.cancelled', a, context.now)
  if (plan.refundPence !== undefined && plan.refundPence > 0 && a.booking.state !== 'AWAITING_PAYMENT') await announceBooking(repos, 'payment.refunded', a, context.now)
  await repos.bookings.addEvent(a.booking.id, context.event, context.actorId, {
    lesson_state: plan.lesson.to,
    booking_state: plan.booking.to,
    ...(plan.refundPence === undefined ? {} : { refund: formatPence(plan.refundPence) }),
  })
}
