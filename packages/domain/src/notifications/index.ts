export type { NotificationsDeps, NotificationsRepos, PushDeliveryLog } from './ports'
export {
  parseWebPushSubscription,
  type PushDevice,
  type PushGateway,
  type PushNotification,
  type PushOutcome,
  type WebPushSubscription,
  WebPushSubscriptionSchema,
} from './push-gateway'
export { type PushCallback, type PushCallbackOutcome, recordPushCallback } from './record-push-callback'
