import type Redis from 'ioredis'
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible'

export type ThrottleDecision = { allowed: boolean; limit: number; remaining: number; resetSeconds: number }

export interface Throttle {
  readonly limit: number
  readonly windowSeconds: number
  consume(key: string): Promise<ThrottleDecision>
}

/**
 * A fixed 60-second window per key (CONTRACT §9). With Redis every instance shares the
 * counters; without it each process counts alone, which is right for the embedded mode.
 * While Redis is unreachable the limiter's insurance counts in this process instead (at
 * once, without waiting on Redis), so the limit still holds per instance and no request
 * fails for it.
 */
export function createThrottle(options: { name: string; limit: number; redis?: Redis; windowSeconds?: number }): Throttle {
  const windowSeconds = options.windowSeconds ?? 60
  const settings = { keyPrefix: `throttle:${options.name}`, points: options.limit, duration: windowSeconds }
  const limiter: RateLimiterAbstract = options.redis
    ? new RateLimiterRedis({
        ...settings,
        storeClient: options.redis,
        useRedisPackage: false,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory(settings),
      })
    : new RateLimiterMemory(settings)
  const decide = (res: RateLimiterRes, allowed: boolean): ThrottleDecision => ({
    allowed,
    limit: options.limit,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  })
  return {
    limit: options.limit,
    windowSeconds,
    async consume(key) {
      try {
        return decide(await limiter.consume(key), true)
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return decide(rejection, false)
        throw rejection
      }
    },
  }
}
