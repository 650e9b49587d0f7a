import { pushNotificationRoutes } from './notifications.routes'

/** Push provider callbacks. */
export const routes = pushNotificationRoutes
