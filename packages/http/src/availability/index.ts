import { availabilityRoutes } from './availability.routes'

/** Bookable slots, calendar feeds and address search. */
export const routes = availabilityRoutes
