import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql, type Kysely } from 'kysely'
import { createTestDatabase, testDatabaseKinds } from '../testing'
import type { DatabaseHandle } from './connect'
import type { Database } from './database'
import { applyRepeatableSql, migrateDown, migrateToLatest, repeatableSqlFiles, type RepeatableSql } from './migrate'
import { sqlStatements } from './sql-statements'

/** The functions a file defines, with the body between its `$fn$` quotes. */
const functionsOf = (file: RepeatableSql) =>
  sqlStatements(file.text).flatMap((statement) => {
    const found = /^create or replace function (\w+)\([\s\S]*?\$fn\$([\s\S]*)\$fn\$$/.exec(statement)
    return found ? [{ name: found[1]!, body: found[2]! }] : []
  })

/** The triggers a file defines: name, table and the function they execute. */
const triggersOf = (file: RepeatableSql) =>
  sqlStatements(file.text).flatMap((statement) => {
    const found = /^create or replace trigger (\w+) [\s\S]*? on (\w+) [\s\S]* execute function (\w+)\(/.exec(statement)
    return found ? [{ name: found[1]!, table: found[2]!, fn: found[3]! }] : []
  })

const liveDefinition = async (db: Kysely<Database>, fn: string) =>
  (await sql<{ def: string }>`select pg_get_functiondef(${fn}::regproc) as def`.execute(db)).rows[0]!.def

const recorded = async (db: Kysely<Database>, name: string) =>
  (await sql<{ checksum: string; applied_at: Date }>`select checksum, applied_at from repeatable_sql where name = ${name}`.execute(db)).rows[0]

const DEFERRAL = 'search/bulk-deferral.sql'
const sabotage = (db: Kysely<Database>) =>
  sql`create or replace function tutor_search_refresh_deferred() returns boolean language sql stable as $fn$ select false $fn$`.execute(db)

describe.each(testDatabaseKinds())('live SQL files on %s', (kind) => {
  let handle: DatabaseHandle
  let files: RepeatableSql[]
  beforeAll(async () => {
    handle = await createTestDatabase(kind)
    files = await repeatableSqlFiles()
  })
  afterAll(() => handle.close())

  it('finds search’s files, each defining something', async () => {
    expect(files.map((f) => f.name)).toContain(DEFERRAL)
    for (const file of files) expect(functionsOf(file).length + triggersOf(file).length, file.name).toBeGreaterThan(0)
  })

  it('leaves every function and trigger after migrating as its file defines it, and records each file', async () => {
    for (const file of files) {
      for (const fn of functionsOf(file)) expect(await liveDefinition(handle.db, fn.name), `${file.name}: ${fn.name}`).toContain(fn.body)
      for (const trigger of triggersOf(file)) {
        const live = await sql<{ fn: string }>`
          select t.tgfoid::regproc::text as fn from pg_trigger t
          where t.tgname = ${trigger.name} and t.tgrelid = ${trigger.table}::regclass and not t.tgisinternal
        `.execute(handle.db)
        expect(live.rows, `${file.name}: ${trigger.name} on ${trigger.table}`).toEqual([{ fn: trigger.fn }])
      }
      expect((await recorded(handle.db, file.name))?.checksum, file.name).toBe(file.checksum)
    }
  })

  it('applies a file again once when the checksum it recorded differs from the file’s', async () => {
    const body = functionsOf(files.find((f) => f.name === DEFERRAL)!)[0]!.body
    await sabotage(handle.db)
    await sql`update repeatable_sql set checksum = 'stale' where name = ${DEFERRAL}`.execute(handle.db)
    const before = (await recorded(handle.db, DEFERRAL))!.applied_at

    expect(await migrateToLatest(handle.db)).toEqual([])
    expect(await liveDefinition(handle.db, 'tutor_search_refresh_deferred')).toContain(body)
    const after = (await recorded(handle.db, DEFERRAL))!
    expect(after.checksum).toBe(files.find((f) => f.name === DEFERRAL)!.checksum)
    expect(after.applied_at.getTime()).toBeGreaterThan(before.getTime())

    // Recorded as current, the file is not applied again: the sabotage stays.
    await sabotage(handle.db)
    expect(await applyRepeatableSql(handle.db, files, { all: false })).toEqual([])
    expect(await liveDefinition(handle.db, 'tutor_search_refresh_deferred')).not.toContain(body)
  })

  it('applies every file again when a migration ran, which may have written a historic definition', async () => {
    await sabotage(handle.db)
    expect((await migrateDown(handle.db)).length).toBe(1)
    expect((await migrateToLatest(handle.db)).length).toBe(1)
    const body = functionsOf(files.find((f) => f.name === DEFERRAL)!)[0]!.body
    expect(await liveDefinition(handle.db, 'tutor_search_refresh_deferred')).toContain(body)
  })
})
