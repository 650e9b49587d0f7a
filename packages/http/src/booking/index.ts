import { routeGroups } from '../platform/routes'
import { bookingWebhookDocs } from './booking.webhooks'
import { bookingRoutes } from './bookings.routes'
import { lessonRoutes } from './lessons.routes'

/** Bookings and their lessons. */
export const routes = routeGroups(bookingRoutes, lessonRoutes, bookingWebhookDocs)
export { bookingWebhookData } from './booking.webhooks'
export { BookingSchema, BookingStateSchema, idParam, listQuery, presentBooking, presentNote, webApiAuth } from './booking.schemas'
