import { tutorRoutes } from './tutors.routes'

/** Views of a tutor: status, public profile (also by username), staff details. */
export const routes = tutorRoutes
