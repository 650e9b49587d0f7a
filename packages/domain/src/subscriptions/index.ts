export * from './subscription-status'
