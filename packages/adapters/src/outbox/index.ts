export * from './outbox-worker'
export { processorSyncHandlers } from './processor-sync'
