export { offlineProcessor } from './offline-processor'
