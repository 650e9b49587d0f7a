export * from './shared'
export * from './pricing'
export * from './lesson'
export * from './booking'
