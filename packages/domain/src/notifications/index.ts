export type { NotificationsDeps, NotificationsRepos, PushDeliveryLog } from './ports'
export {
  type PushDevice,
  type PushGateway,
  type PushNotification,
  type PushOutcome,
} from './push-gateway'
export { type PushCallback, type PushCallbackOutcome, recordPushCallback } from './record-push-callback'
