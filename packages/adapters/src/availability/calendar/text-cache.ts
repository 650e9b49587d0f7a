import type Redis from 'ioredis'

/** A small string cache with expiry: Redis when configured (shared by instances), else this process. */
export interface TextCache {
  get(key: string): Promise<string | undefined>
  set(key: string, value: string, ttlSeconds: number): Promise<void>
}

export function memoryTextCache(options: { now?: () => number; maxEntries?: number } = {}): TextCache {
  const now = options.now ?? Date.now
  const maxEntries = options.maxEntries ?? 500
  const entries = new Map<string, { value: string; expiresAt: number }>()
  return {
    async get(key) {
      const entry = entries.get(key)
      if (!entry) return undefined
      if (entry.expiresAt <= now()) {
        entries.delete(key)
        return undefined
      }
      return entry.value
    },
    async set(key, value, ttlSeconds) {
      entries.delete(key)
      // Oldest first: Map keeps insertion order.
      while (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string)
      entries.set(key, { value, expiresAt: now() + ttlSeconds * 1000 })
    },
  }
}

export function redisTextCache(redis: Redis, prefix: string): TextCache {
  return {
    async get(key) {
      return (await redis.get(`${prefix}${key}`)) ?? undefined
    },
    async set(key, value, ttlSeconds) {
      await redis.set(`${prefix}${key}`, value, 'EX', ttlSeconds)
    },
  }
}

/**
 * Redis while it answers, this process's memory while it does not: a cache that is down
 * costs a miss, never an error or a wait (the client fails at once when disconnected).
 */
export function fallbackTextCache(redis: Redis, prefix: string, memory: TextCache = memoryTextCache()): TextCache {
  const shared = redisTextCache(redis, prefix)
  const usable = () => redis.status === 'ready'
  return {
    async get(key) {
      if (!usable()) return memory.get(key)
      return shared.get(key).catch(() => memory.get(key))
    },
    async set(key, value, ttlSeconds) {
      if (!usable()) return memory.set(key, value, ttlSeconds)
      await shared.set(key, value, ttlSeconds).catch(() => memory.set(key, value, ttlSeconds))
    },
  }
}
