export * from './outbox-worker'
export { outboxQueue, outboxWriter, type OutboxQueue } from './outbox.repository'
