export * from './outbox-message'
