export * from './outbox-worker'
export { processorSyncHandlers } from '../booking-payments/payment-sync'
export { devicePushSender } from '../notifications/push-delivery'
