import type Redis from 'ioredis'
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible'

export type ThrottleDecision = { allowed: boolean; limit: number; remaining: number; resetSeconds: number }

export interface Throttle {
  readonly limit: number
  readonly windowSeconds: number
  consume(key: string): Promise<ThrottleDecision>
}

type LimiterOptions = { name: string; limit: number; redis?: Redis; windowSeconds?: number }

/** A fixed window of `limit` points per key, in Redis (insured in memory) or in this process. */
function limiterOf(options: LimiterOptions): { limiter: RateLimiterAbstract; windowSeconds: number; decide(res: RateLimiterRes, allowed: boolean): ThrottleDecision } {
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
  return { limiter, windowSeconds, decide }
}

/**
 * A fixed 60-second window per key (CONTRACT §9). With Redis every instance shares the
 * counters; without it each process counts alone, which is right for the embedded mode.
 * While Redis is unreachable the limiter's insurance counts in this process instead (at
 * once, without waiting on Redis), so the limit still holds per instance and no request
 * fails for it.
 */
export function createThrottle(options: LimiterOptions): Throttle {
  const { limiter, windowSeconds, decide } = limiterOf(options)
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

/** An amount per key and window (bytes, say), taken in one piece or not at all. */
export interface Allowance {
  readonly limit: number
  readonly windowSeconds: number
  /** What is left for the key now (`allowed` while anything is). */
  left(key: string): Promise<ThrottleDecision>
  /** Takes `amount` when all of it is left; otherwise takes nothing and says when enough may be. */
  take(key: string, amount: number): Promise<ThrottleDecision>
}

/**
 * `createThrottle`'s window for amounts: counted alike (in Redis when configured, shared by
 * every instance), but a request that does not fit is given back, so a refusal costs the
 * key nothing and a smaller one may still fit.
 */
export function createAllowance(options: LimiterOptions): Allowance {
  const { limiter, windowSeconds, decide } = limiterOf(options)
  const fresh = (): ThrottleDecision => ({ allowed: true, limit: options.limit, remaining: options.limit, resetSeconds: windowSeconds })
  return {
    limit: options.limit,
    windowSeconds,
    async left(key) {
      const res = await limiter.get(key)
      return res ? decide(res, res.remainingPoints > 0) : fresh()
    },
    async take(key, amount) {
      try {
        return decide(await limiter.consume(key, amount), true)
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection
        await limiter.reward(key, amount)
        return { ...decide(rejection, false), remaining: Math.max(0, rejection.remainingPoints + amount) }
      }
    },
  }
}
