export { createApp } from './app'
export { startServer } from './server'
