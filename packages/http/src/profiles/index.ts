import { routeGroups } from '../platform/routes'
import { contactRoutes } from './contacts.routes'
import { profileRoutes } from './profiles.routes'
import { socialLinkRoutes } from './social-links.routes'

/** Everything a user keeps about themselves: details, profile, education, professions, children, addresses, mobiles, devices, social links. */
export const routes = routeGroups(profileRoutes, contactRoutes, socialLinkRoutes)
