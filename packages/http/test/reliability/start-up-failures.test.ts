import { createServer, type Server } from 'node:net'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launch, SERVER_ENTRY } from '../support/child-server'

type LogLine = { level: number; msg: string; time: number; err?: { message: string }; problems?: string[] }

/** Every line the process wrote, each parsed as the JSON it must be. */
const jsonLines = (text: string): LogLine[] =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LogLine)

const FATAL = 60

/** CONTRACT §16 "Operations", issue 23: a start that fails says why in one JSON line and exits non-zero. */
describe('a start that fails', () => {
  let dataDir: string
  let taken: Server
  let port: number
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'tutoring-start-'))
    taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '0.0.0.0', resolve))
    port = (taken.address() as { port: number }).port
  })
  afterAll(async () => {
    await new Promise((resolve) => taken.close(resolve))
    await rm(dataDir, { recursive: true, force: true })
  })

  it('finds a taken port before opening, migrating or seeding the database', async () => {
    const started = Date.now()
    const result = await launch(SERVER_ENTRY, [], { DATA_DIR: dataDir, PORT: String(port), DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'info', NODE_ENV: 'production' }).finished
    expect(result.code).not.toBe(0)
    expect(result.code).not.toBeNull()
    const errors = jsonLines(result.stderr)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ level: FATAL })
    expect(errors[0]!.msg).toMatch(new RegExp(`port ${port} is (already )?in use`))
    const log = jsonLines(result.stdout)
    expect(log.map((line) => line.msg).filter((msg) => /migrating|seeding|opening the embedded database/.test(msg))).toEqual([])
    // Nothing was created in the data folder: the database was never opened.
    expect(await readdir(dataDir)).toEqual([])
    expect(Date.now() - started).toBeLessThan(30_000)
  }, 60_000)

  it('reports an invalid configuration as one JSON line naming each variable', async () => {
    const result = await launch(SERVER_ENTRY, [], { DATA_DIR: dataDir, DATABASE_URL: 'nonsense', REDIS_URL: 'localhost:6379', NODE_ENV: 'production' }).finished
    expect(result.code).toBe(1)
    const errors = jsonLines(result.stderr)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({
      level: FATAL,
      msg: 'invalid configuration: DATABASE_URL must be a postgres:// or postgresql:// URL; REDIS_URL must be a redis:// or rediss:// URL',
      problems: ['DATABASE_URL must be a postgres:// or postgresql:// URL', 'REDIS_URL must be a redis:// or rediss:// URL'],
    })
    expect(result.stdout).toBe('')
  }, 60_000)

  it('reports a database that cannot be reached as one JSON line', async () => {
    const result = await launch(SERVER_ENTRY, [], { DATA_DIR: dataDir, PORT: '0', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', REDIS_URL: '', NODE_ENV: 'production' }).finished
    expect(result.code).toBe(1)
    const errors = jsonLines(result.stderr)
    expect(errors).toHaveLength(1)
    expect(errors[0]!.level).toBe(FATAL)
    expect(errors[0]!.msg).toMatch(/^start-up failed: /)
    // Every line is JSON outside development: the whole output parses.
    expect(() => jsonLines(result.stdout)).not.toThrow()
  }, 60_000)
})
