export * from './payment-processor'
