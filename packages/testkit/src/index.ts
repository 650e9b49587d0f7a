export * from './pricing'
export * from './machines'
