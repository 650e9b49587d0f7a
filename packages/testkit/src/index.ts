export * from './pricing'
export * from './machines'
export * from './availability'
export * from './search'
