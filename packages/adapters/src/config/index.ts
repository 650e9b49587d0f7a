export * from './config'
export * from './app-key'
