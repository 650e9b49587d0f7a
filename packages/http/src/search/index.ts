import { searchRoutes } from './search.routes'

/** Public tutor search. */
export const routes = searchRoutes
