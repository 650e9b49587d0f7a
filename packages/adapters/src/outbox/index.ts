export * from './outbox-worker'
