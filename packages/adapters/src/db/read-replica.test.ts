import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { connectRedis } from '../redis'
import { parseLsn, recentWriters } from './read-replica'

describe('read replica routing', () => {
  it('orders log positions across the 32-bit boundary', () => {
    expect(parseLsn('0/3000060') > parseLsn('0/3000000')).toBe(true)
    expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true)
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n)
  })

  it('remembers a writer in this process for the window, by any of their keys', async () => {
    let now = 1_000
    const writers = recentWriters(5_000, undefined, pino({ level: 'silent' }), () => now)
    await writers.note(['user:1', 'addr:198.51.100.1'])
    expect(await writers.any(['user:1'])).toBe(true)
    expect(await writers.any(['user:2', 'addr:198.51.100.1'])).toBe(true)
    expect(await writers.any(['user:2', 'addr:198.51.100.2'])).toBe(false)
    now += 5_001
    expect(await writers.any(['user:1', 'addr:198.51.100.1'])).toBe(false)
  })
})

describe.skipIf(!process.env.REDIS_URL)('read-after-write in Redis, as every instance sees it', () => {
  it('remembers a writer noted by one instance for another, for the window only', async () => {
    const logger = pino({ level: 'silent' })
    const [one, two] = [connectRedis(process.env.REDIS_URL!, logger), connectRedis(process.env.REDIS_URL!, logger)]
    try {
      const key = `user:${Date.now()}-${Math.random()}`
      await recentWriters(300, one, logger).note([key])
      const other = recentWriters(300, two, logger)
      expect(await other.any(['addr:nobody', key])).toBe(true)
      await new Promise((r) => setTimeout(r, 400))
      expect(await other.any([key])).toBe(false)
    } finally {
      one.disconnect()
      two.disconnect()
    }
  })
})
