import { availabilityRoutes } from './availability.routes'

/** Bookable slots, calendar feeds and address search. */
export const routes = availabilityRoutes

/** Availability reads come from the replica when one is configured. */
export const replicaReads = ['GET'] as const
