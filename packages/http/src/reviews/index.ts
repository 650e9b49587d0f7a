import { reviewRoutes } from './reviews.routes'

/** Reviews of tutors and their summaries. */
export const routes = reviewRoutes
