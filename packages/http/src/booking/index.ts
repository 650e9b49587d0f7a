import { routeGroups } from '../platform/routes'
import { bookingRoutes } from './bookings.routes'
import { lessonRoutes } from './lessons.routes'

/** Bookings and their lessons. */
export const routes = routeGroups(bookingRoutes, lessonRoutes)
export { idParam, listQuery, presentNote, webApiAuth } from './booking.schemas'
