import { subscriptionRoutes } from './subscriptions.routes'

/** Tutors' memberships, the billing portal and the processor's subscription webhook. */
export const routes = subscriptionRoutes
export { SubscriptionStatusSchema } from './subscriptions.schemas'
