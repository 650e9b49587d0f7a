import { mkdir } from 'node:fs/promises'
import { PGlite } from '@electric-sql/pglite'
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist'
import { cube } from '@electric-sql/pglite/contrib/cube'
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance'
import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import type { Database } from './database'
import { lockDataDir } from './data-dir-lock'
import { GuardedKysely, PGliteDialect, TransactionGuard } from './pglite-dialect'
import { preparingPool } from './prepared-statements'
import { PG_TYPE, keepText, parseInt8 } from './type-parsers'

export type DatabaseKind = 'pglite' | 'postgres'

export interface DatabaseHandle {
  readonly db: Kysely<Database>
  readonly kind: DatabaseKind
  close(): Promise<void>
}

/** What PGlite needs for the migrations (the exclusion constraint, distances); test snapshots load the same. */
export const PGLITE_EXTENSIONS = { btree_gist, cube, earthdistance }

/**
 * Embedded Postgres; `dataDir` undefined keeps it in memory (tests). A directory is owned by
 * this process while open (see lockDataDir): a second process is refused before touching it.
 */
export async function openPGlite(dataDir?: string): Promise<DatabaseHandle> {
  if (!dataDir) return fromPGlite(await PGlite.create({ extensions: PGLITE_EXTENSIONS }))
  const lock = await lockDataDir(dataDir)
  try {
    await mkdir(dataDir, { recursive: true })
    const handle = fromPGlite(await PGlite.create({ dataDir, extensions: PGLITE_EXTENSIONS }))
    return {
      ...handle,
      async close() {
        await handle.close()
        await lock.release()
      },
    }
  } catch (error) {
    await lock.release()
    throw error
  }
}

export function fromPGlite(pglite: PGlite): DatabaseHandle {
  const guard = new TransactionGuard()
  const db = new GuardedKysely<Database>({ dialect: new PGliteDialect(pglite, guard) }, guard)
  return { db, kind: 'pglite', close: () => db.destroy() }
}

const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === PG_TYPE.INT8) return parseInt8
    if (oid === PG_TYPE.DATE || oid === PG_TYPE.NUMERIC) return keepText
    return pg.types.getTypeParser(oid, format)
  },
} as pg.CustomTypesConfig

export interface PostgresOptions {
  maxConnections?: number
}

export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10, types: pgTypes })
  // A pool error on an idle client must not crash the process; the next query reconnects.
  pool.on('error', () => undefined)
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }) })
  await sql`select 1`.execute(db)
  return { db, kind: 'postgres', close: () => db.destroy() }
}
