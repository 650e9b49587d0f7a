import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPGlite, openPostgres, type DatabaseHandle } from './connect'
import { compiledOnce, prepare } from './prepared-statements'

const serverUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL

const sumOf = (handle: DatabaseHandle, a: number, b: number) => handle.db.executeQuery(prepare(sql<{ n: number }>`select ${a}::int + ${b}::int as n`.compile(handle.db)))

describe.skipIf(!serverUrl)('statements marked prepared, on PostgreSQL', () => {
  let handle: DatabaseHandle
  // One connection, so the session asked about is the one that ran the statements.
  beforeAll(async () => {
    handle = await openPostgres(serverUrl!, { maxConnections: 1 })
  })
  afterAll(() => handle.close())

  it('are prepared once per connection and answer each call with its own parameters', async () => {
    expect((await sumOf(handle, 1, 2)).rows).toEqual([{ n: 3 }])
    expect((await sumOf(handle, 40, 2)).rows).toEqual([{ n: 42 }])
    await sql`select ${1}::int as unmarked`.execute(handle.db)
    const held = await sql<{ statement: string }>`select statement from pg_prepared_statements order by statement`.execute(handle.db)
    expect(held.rows.map((r) => r.statement)).toEqual(['/* prepared */ select $1::int + $2::int as n'])
  })
})

describe('statements marked prepared, on PGlite', () => {
  it('run as any other statement', async () => {
    const handle = await openPGlite()
    try {
      expect((await sumOf(handle, 40, 2)).rows).toEqual([{ n: 42 }])
    } finally {
      await handle.close()
    }
  })
})

describe('a statement compiled once', () => {
  it('answers each call with its own values, wherever compiling placed them, beside the fixed ones', async () => {
    const handle = await openPGlite()
    try {
      let builds = 0
      const statement = compiledOnce<{ a: number; b: number }, { n: number }>((db, value) => {
        builds++
        return sql<{ n: number }>`select ${value('b')}::int * ${10}::int + ${value('a')}::int as n`.compile(db)
      })
      expect((await handle.db.executeQuery(statement(handle.db, { a: 1, b: 2 }))).rows).toEqual([{ n: 21 }])
      expect((await handle.db.executeQuery(statement(handle.db, { a: 7, b: 4 }))).rows).toEqual([{ n: 47 }])
      expect(builds).toBe(1)
    } finally {
      await handle.close()
    }
  })
})
