import { getBooking } from '@tutoring/domain/booking'
import type { Services } from '@tutoring/adapters'
import { describeWebhook, type WebhookData } from '../integrations'
import { mediaUrls } from '../platform/media-urls'
import type { App } from '../platform/routes'
import { BookingSchema, LessonSchema, presentBooking, presentLesson } from './booking.schemas'

/**
 * Booking, lesson and refund events name the booking: `lesson.*` carry the lesson as
 * `GET /api/lessons/{id}` answers it, the others the booking detail. A booking the owner can
 * no longer see (an account gone) is reduced to its id.
 */
export const bookingWebhookData = (services: Services): WebhookData => {
  const urls = mediaUrls(services.infra.baseUrl)
  return async (type, id, owner) => {
    const found = await getBooking(services.bookings, owner, id)
    if (found.isErr()) return { id }
    return type.startsWith('lesson.') ? presentLesson(found.value) : presentBooking(found.value, urls)
  }
}

export function bookingWebhookDocs(app: App): void {
  describeWebhook(app, { type: 'booking.created', summary: 'A lesson was booked (unpaid, held)', data: BookingSchema })
  describeWebhook(app, { type: 'booking.paid', summary: 'A booking came to count as paid (authorised, captured or its card set up for later)', data: BookingSchema })
  describeWebhook(app, { type: 'booking.cancelled', summary: 'A booking\'s lesson was cancelled (by a party, staff, a declined or lapsed proposal, or a lapsed hold)', data: BookingSchema })
  describeWebhook(app, { type: 'payment.refunded', summary: 'A cancellation refunded money (the receipt says how much)', data: BookingSchema })
  describeWebhook(app, { type: 'lesson.reschedule_proposed', summary: 'A party proposed new times', data: LessonSchema })
  describeWebhook(app, { type: 'lesson.rescheduled', summary: 'Proposed times were accepted: the lesson moved', data: LessonSchema })
  describeWebhook(app, { type: 'lesson.completed', summary: "A lesson's finish passed and it was not cancelled", data: LessonSchema })
}
