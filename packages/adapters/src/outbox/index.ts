export * from './outbox-worker'
export { processorSyncHandlers } from './processor-sync'
export { devicePushSender } from './push-delivery'
