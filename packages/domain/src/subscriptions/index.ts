export { openBillingPortal, type PortalAction } from './open-billing-portal'
export type {
  Subscription,
  SubscriptionChange,
  SubscriptionPlan,
  SubscriptionRepository,
  SubscriptionsDeps,
  SubscriptionsRepos,
} from './ports'
export { recordSubscriptionEvent, type SubscriptionEventInput, type SubscriptionEventOutcome } from './record-subscription-event'
export { startSubscription, SUBSCRIPTION_CREATE_TOPIC, type SubscriptionStarted } from './start-subscription'
export {
  isSubscriptionValid,
  SUBSCRIPTION_STATUSES,
  type SubscriptionStatus,
  subscriptionStatusAfter,
} from './subscription-status'
