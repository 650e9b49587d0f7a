export { connectRedis, pingRedis, redisReady } from './connect'
