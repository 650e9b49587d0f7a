import { registrationRoutes } from './registration.routes'

/** Registering a student, parent or tutor. */
export const routes = registrationRoutes
