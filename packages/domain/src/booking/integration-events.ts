import type { WebhookEventType } from '../integrations'
import type { BookingAggregate } from './booking-record'
import type { BookingState } from './booking-state'
import type { BookingRepos } from './ports'

/** Whose endpoints hear of a booking (CONTRACT §16): its tutor, its booker, its student (staff hear of all). */
export const bookingPartyIds = (a: Pick<BookingAggregate, 'booking' | 'lesson'>): number[] => [...new Set([a.lesson.tutorId, a.lesson.studentId, a.booking.userId])]

/** Records a booking's event for integrators, in the caller's transaction. */
export async function announceBooking(
  repos: Pick<BookingRepos, 'integrationEvents'>,
  type: WebhookEventType,
  a: Pick<BookingAggregate, 'booking' | 'lesson'>,
  at: Date,
): Promise<void> {
  await repos.integrationEvents.record({ type, subject: { kind: 'booking', id: a.booking.id }, partyIds: bookingPartyIds(a), at })
}

const PAID: ReadonlySet<BookingState> = new Set(['REQUIRES_CAPTURE', 'PAYED'])

/** `booking.paid` when a booking waiting for its money comes to count as paid (CONTRACT §15), whichever way it got there. */
export async function announceIfPaid(
  repos: Pick<BookingRepos, 'integrationEvents'>,
  a: Pick<BookingAggregate, 'booking' | 'lesson'>,
  to: BookingState,
  at: Date,
): Promise<void> {
  if (a.booking.state === 'AWAITING_PAYMENT' && PAID.has(to)) await announceBooking(repos, 'booking.paid', a, at)
}
