export * from './ports'
export { recordPushCallback, PUSH_EVENT_SOURCE, type PushCallback, type PushCallbackOutcome } from './record-push-callback'
