import { verificationRoutes } from './verification.routes'

/** Identity, DBS and qualification checks, their provider's webhook and staff review. */
export const routes = verificationRoutes
