import { routeGroups } from '../platform/routes'
import { accountRoutes } from './accounts.routes'
import { userRoutes } from './users.routes'

/** Sessions, passwords, email verification, and user records. */
export const routes = routeGroups(accountRoutes, userRoutes)
export { SessionSchema, UserSchema, emailField, passwordField, presentSession, presentUser } from './accounts.schemas'
