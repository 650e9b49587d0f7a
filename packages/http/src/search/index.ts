import { searchRoutes } from './search.routes'

/** Public tutor search. */
export const routes = searchRoutes

/** Every search (GET, and POST with the parameters in a body) reads from the replica when one is configured. */
export const replicaReads = ['GET', 'POST'] as const
