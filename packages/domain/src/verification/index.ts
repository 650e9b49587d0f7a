export * from './verification'
