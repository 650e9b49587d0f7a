import { routeGroups } from '../platform/routes'
import { bookingRoutes } from './bookings.routes'
import { lessonRoutes } from './lessons.routes'
import { noteRoutes } from './notes.routes'

/** Bookings and their lessons and notes. */
export const routes = routeGroups(bookingRoutes, lessonRoutes, noteRoutes)
export { BookingSchema, idParam, listQuery, presentBooking, webApiAuth } from './booking.schemas'
