export type { NotificationsDeps } from './ports'
export { type PushCallback, type PushCallbackOutcome, recordPushCallback } from './record-push-callback'
