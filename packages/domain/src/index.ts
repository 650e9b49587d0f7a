export * from './shared'
export * from './pricing'
