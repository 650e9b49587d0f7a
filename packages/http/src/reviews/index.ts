import { routeGroups } from '../platform/routes'
import { reviewRoutes } from './reviews.routes'
import { reviewWebhookDocs } from './reviews.webhooks'

/** Reviews of tutors and their summaries. */
export const routes = routeGroups(reviewRoutes, reviewWebhookDocs)
export { reviewWebhookData } from './reviews.webhooks'
