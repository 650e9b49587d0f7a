export * from './rate-limiter'
