import { routeGroups } from '../platform/routes'
import { fileRoutes } from './files.routes'
import { mediaRoutes } from './media.routes'

/** Uploads, profile media and the signed resource links. */
export const routes = routeGroups(fileRoutes, mediaRoutes)
export { multipartBody } from './files.schemas'
