import { describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createTestDatabase, testDatabaseKinds } from '../testing'
import { migrateDown, migrateToLatest } from './migrate'
import { seedReferenceData } from './seed/seed-reference-data'

describe.each(testDatabaseKinds())('migrations and seed on %s', (kind) => {
  it('runs every migration down and up again, and seeds idempotently', async () => {
    const handle = await createTestDatabase(kind)
    try {
      const countries = async () =>
        (await sql<{ c: number }>`select count(*)::int as c from countries`.execute(handle.db)).rows[0]!.c
      expect(await countries()).toBe(249)
      await seedReferenceData(handle.db)
      expect(await countries()).toBe(249)
      let down: string[]
      do {
        down = await migrateDown(handle.db)
      } while (down.length > 0)
      const tables = await sql<{ c: number }>`select count(*)::int as c from information_schema.tables where table_schema = 'public' and table_name not like 'kysely_%'`.execute(handle.db)
      expect(tables.rows[0]!.c).toBe(0)
      expect((await migrateToLatest(handle.db)).length).toBeGreaterThan(0)
    } finally {
      await handle.close()
    }
  })

  it('refuses a tutor double booking at the database (btree_gist exclusion works here)', async () => {
    const handle = await createTestDatabase(kind)
    try {
      await sql`create temp table probe (t int, during tstzrange, exclude using gist (t with =, during with &&))`.execute(handle.db)
      await sql`insert into probe values (1, tstzrange('2026-12-01 10:00Z', '2026-12-01 11:00Z'))`.execute(handle.db)
      await expect(
        sql`insert into probe values (1, tstzrange('2026-12-01 10:30Z', '2026-12-01 11:30Z'))`.execute(handle.db),
      ).rejects.toMatchObject({ code: '23P01' })
    } finally {
      await handle.close()
    }
  })
})
