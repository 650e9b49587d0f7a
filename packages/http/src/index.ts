export { createApp } from './app'
export { buildServices, type Services } from './services'
export { startServer } from './server'
