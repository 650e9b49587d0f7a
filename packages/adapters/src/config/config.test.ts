import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config'

const problemsOf = (env: Record<string, string>): readonly string[] => {
  try {
    loadConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) return error.problems
    throw error
  }
  throw new Error('the configuration was accepted')
}

describe('loadConfig', () => {
  it('runs with no variable at all', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({ PORT: 3000, TRUSTED_PROXIES: 'loopback' })
    expect([config.DATABASE_URL, config.REDIS_URL]).toEqual([undefined, undefined])
  })

  it('refuses DATABASE_URL=nonsense and a malformed REDIS_URL with a line naming each', () => {
    expect(problemsOf({ DATABASE_URL: 'nonsense' })).toEqual(['DATABASE_URL must be a postgres:// or postgresql:// URL'])
    expect(problemsOf({ REDIS_URL: 'localhost:6379' })).toEqual(['REDIS_URL must be a redis:// or rediss:// URL'])
    expect(problemsOf({ REDIS_URL: 'http://127.0.0.1:6379' })).toEqual(['REDIS_URL must be a redis:// or rediss:// URL'])
  })

  it('takes a read replica only beside a server database (DATABASE_READ_URL)', () => {
    expect(problemsOf({ DATABASE_READ_URL: 'postgres://replica/tutoring' })).toEqual(['DATABASE_READ_URL needs DATABASE_URL: a replica of the embedded database cannot exist'])
    expect(problemsOf({ DATABASE_URL: 'postgres://db/tutoring', DATABASE_READ_URL: 'mysql://replica' })).toEqual(['DATABASE_READ_URL must be a postgres:// or postgresql:// URL'])
    const config = loadConfig({ DATABASE_URL: 'postgres://db/tutoring', DATABASE_READ_URL: 'postgres://replica/tutoring' })
    expect(config).toMatchObject({ DATABASE_READ_URL: 'postgres://replica/tutoring', READ_AFTER_WRITE_MS: 5000, READ_REPLICA_MAX_LAG_MS: 5000 })
  })

  it('gives one line for each malformed variable, and repeats no value that may hold a credential', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      SMTP_URL: 'smtp.example.com:587',
      APP_KEY: 'too short',
      TRUSTED_PROXIES: 'loopback,10.0.0.0/33',
      LOG_LEVEL: 'loud',
      STRIPE_API_BASE: 'localhost:12111',
      BACKGROUND_JOBS: 'yes',
    })
    expect(problems).toHaveLength(7)
    expect(problems).toEqual(
      expect.arrayContaining([
        'PORT must be a whole number from 0 to 65535 (got "eighty")',
        'SMTP_URL must be an smtp:// or smtps:// URL',
        'APP_KEY must be at least 32 bytes, best as base64:<32 random bytes in base64>',
        'TRUSTED_PROXIES must be comma-separated addresses, CIDRs or loopback, linklocal, uniquelocal (got "loopback,10.0.0.0/33")',
        'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
        'BACKGROUND_JOBS must be on or off (got "yes")',
      ]),
    )
    expect(problems.join('\n')).not.toContain('too short')
    expect(new ConfigError(problems).message).toMatch(/^invalid configuration: [^\n]+$/)
  })

  it('reads LESSON_REMINDERS as minutes before the start (1440,60 by default, none for no reminders) and refuses anything else', () => {
    expect(loadConfig({}).LESSON_REMINDERS).toEqual([1440, 60])
    expect(loadConfig({ LESSON_REMINDERS: '2880, 30' }).LESSON_REMINDERS).toEqual([2880, 30])
    expect(loadConfig({ LESSON_REMINDERS: 'none' }).LESSON_REMINDERS).toEqual([])
    for (const bad of ['0', '60,', 'an hour', '50000']) {
      expect(problemsOf({ LESSON_REMINDERS: bad })).toEqual([`LESSON_REMINDERS must be none or comma-separated whole numbers of minutes from 1 to 40320, like 1440,60 (got "${bad}")`])
    }
  })

  it('accepts the forms the services take', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgresql:///tutoring?host=/var/run/postgresql',
      REDIS_URL: 'rediss://user:secret@redis.example.com:6380/2',
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
      APP_KEY: `base64:${Buffer.alloc(32, 7).toString('base64')}`,
      TRUSTED_PROXIES: 'loopback, 10.0.0.0/8, ::1, fc00::/7, 192.0.2.10',
    })
    expect(config.DATABASE_URL).toBe('postgresql:///tutoring?host=/var/run/postgresql')
    expect(config.REDIS_URL).toBe('rediss://user:secret@redis.example.com:6380/2')
  })
})
