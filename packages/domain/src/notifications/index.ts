export type { NotificationsDeps, NotificationsRepos, PushDeliveryLog } from './ports'
export {
  type PushDevice,
  type PushGateway,
  type PushNotification,
  type PushOutcome,
} from './push-gateway'
export { PUSH_CALLBACK_RETENTION_DAYS, PUSH_EVENT_SOURCE, type PushCallback, type PushCallbackOutcome, recordPushCallback } from './record-push-callback'
