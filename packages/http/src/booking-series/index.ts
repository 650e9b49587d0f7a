import { routeGroups } from '../platform/routes'
import { bookingSeriesRoutes } from './booking-series.routes'

/** Weekly series of bookings (CONTRACT §16). */
export const routes = routeGroups(bookingSeriesRoutes)
