export * from './ports'
export { recordPushCallback, PUSH_EVENT_SOURCE, type PushCallback, type PushCallbackOutcome } from './record-push-callback'
export {
  WebPushSubscriptionSchema,
  parseWebPushSubscription,
  type PushDevice,
  type PushGateway,
  type PushNotification,
  type PushOutcome,
  type WebPushSubscription,
} from './push-gateway'
