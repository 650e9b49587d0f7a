import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { openPGlite, type DatabaseHandle } from './connect'

describe('PGlite dialect', () => {
  let handle: DatabaseHandle
  beforeAll(async () => {
    handle = await openPGlite()
    await sql`create table counter (id int primary key, n int not null)`.execute(handle.db)
    await sql`create table log (id serial primary key, note text not null)`.execute(handle.db)
    await sql`insert into counter values (1, 0)`.execute(handle.db)
  })
  afterAll(() => handle.close())

  it('keeps a plain write made while another transaction is open, even when that one rolls back', async () => {
    let releaseTransaction!: () => void
    const held = new Promise<void>((resolve) => (releaseTransaction = resolve))
    const failing = handle.db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into log (note) values ('inside')`.execute(trx)
        await held
        throw new Error('roll back')
      })
      .catch(() => 'rolled back')
    const plain = sql`insert into log (note) values ('outside')`.execute(handle.db)
    releaseTransaction()
    expect(await failing).toBe('rolled back')
    await plain
    const notes = await sql<{ note: string }>`select note from log order by id`.execute(handle.db)
    expect(notes.rows.map((r) => r.note)).toEqual(['outside'])
  })

  it('loses no increment when many transactions and plain writes run at once', async () => {
    const transactions = Array.from({ length: 40 }, () =>
      handle.db.transaction().execute(async (trx) => {
        const row = await sql<{ n: number }>`select n from counter where id = 1`.execute(trx)
        await new Promise((resolve) => setTimeout(resolve, 1))
        await sql`update counter set n = ${row.rows[0]!.n + 1} where id = 1`.execute(trx)
      }),
    )
    const plains = Array.from({ length: 40 }, (_, i) => sql`insert into log (note) values (${`plain ${i}`})`.execute(handle.db))
    await Promise.all([...transactions, ...plains])
    const counter = await sql<{ n: number }>`select n from counter where id = 1`.execute(handle.db)
    const logged = await sql<{ c: number }>`select count(*)::int as c from log where note like 'plain %'`.execute(handle.db)
    expect(counter.rows[0]!.n).toBe(40)
    expect(logged.rows[0]!.c).toBe(40)
  })

  it('refuses, at once and loudly, a query through the handle from inside a transaction of the same call chain (CONTRACT §17)', async () => {
    const outcome = await Promise.race([
      handle.db
        .transaction()
        .execute(async () => sql`select 1`.execute(handle.db))
        .then(
          () => 'answered',
          (error: Error) => error.message,
        ),
      new Promise<string>((resolve) => setTimeout(() => resolve('stalled'), 2000)),
    ])
    expect(outcome).toMatch(/one connection.*open transaction/)
    // The connection was given back: the database still answers, and a transaction inside another's chain is refused too.
    expect((await sql<{ n: number }>`select 1 as n`.execute(handle.db)).rows).toEqual([{ n: 1 }])
    await expect(handle.db.transaction().execute(() => handle.db.transaction().execute(async () => 1))).rejects.toThrow(/one connection/)
  })

  it('lets other call chains wait for a transaction as before, and a chain query again once its transaction has ended', async () => {
    let finish!: () => void
    const open = new Promise<void>((resolve) => (finish = resolve))
    const transaction = handle.db.transaction().execute(async (trx) => {
      await sql`insert into log (note) values ('held')`.execute(trx)
      await open
    })
    const other = sql`insert into log (note) values ('waited')`.execute(handle.db)
    finish()
    await Promise.all([transaction, other])
    await handle.db.transaction().execute(async (trx) => sql`select 1`.execute(trx))
    expect((await sql<{ n: number }>`select 1 as n`.execute(handle.db)).rows).toEqual([{ n: 1 }])
  })

  it('reads int8 as a number and a date as its calendar text', async () => {
    const row = await sql<{ big: number; day: string }>`select 42::int8 as big, '2026-03-29'::date as day`.execute(handle.db)
    expect(row.rows[0]).toEqual({ big: 42, day: '2026-03-29' })
  })
})
