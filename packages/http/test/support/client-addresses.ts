import { randomInt } from 'node:crypto'
import type { DatabaseKind } from '@tutoring/adapters'
import { createTestContext, type TestContext } from './harness'

let next = randomInt(0, 120_000)

/**
 * A client address nobody else uses (from 198.18.0.0/15, set aside for tests), so counters
 * kept per address, in Redis too, start at zero.
 */
export function freshAddress(): string {
  const n = next++ % 131_072
  return `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`
}

/**
 * Two instances of the app sharing the Redis of `redisUrl`, as two servers behind a load
 * balancer. `forget` names a counter key suffix (`addr:1.2.3.4`) this test used, so that
 * `close` removes its counters and leaves everyone else's.
 */
export async function twoInstancesSharingRedis(kind: DatabaseKind, redisUrl: string, env: Record<string, string> = {}) {
  const a: TestContext = await createTestContext(kind, { REDIS_URL: redisUrl, ...env })
  const b: TestContext = await createTestContext(kind, { REDIS_URL: redisUrl, ...env })
  const used: string[] = []
  return {
    a,
    b,
    forget: (...suffixes: string[]) => used.push(...suffixes),
    async close() {
      const redis = a.infra.redis!
      const keys = (await Promise.all(used.map((id) => redis.keys(`throttle:*:${id}`)))).flat()
      if (keys.length > 0) await redis.del(...keys)
      await a.close()
      await b.close()
    },
  }
}
