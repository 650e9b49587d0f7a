import { routeGroups } from '../platform/routes'
import { bookingWebhookDocs } from './booking.webhooks'
import { bookingRoutes } from './bookings.routes'
import { lessonRoutes } from './lessons.routes'
import { noteRoutes } from './notes.routes'

/** Bookings and their lessons and notes. */
export const routes = routeGroups(bookingRoutes, lessonRoutes, noteRoutes, bookingWebhookDocs)
export { bookingWebhookData } from './booking.webhooks'
export { idParam, listQuery, webApiAuth } from './booking.schemas'
