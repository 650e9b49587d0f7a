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
export { PUSH_CALLBACK_RETENTION_DAYS, PUSH_EVENT_SOURCE, type PushCallback, type PushCallbackOutcome, recordPushCallback } from './record-push-callback'
