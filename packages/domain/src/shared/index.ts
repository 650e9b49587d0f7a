export * from './errors'
export * from './money'
export * from './clock'
export * from './roles'
