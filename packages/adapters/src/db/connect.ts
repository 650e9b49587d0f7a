import { mkdir } from 'node:fs/promises'
import { PGlite } from '@electric-sql/pglite'
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist'
import { cube } from '@electric-sql/pglite/contrib/cube'
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance'
import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import type { Logger } from '../logger'
import type { Database } from './database'
import { lockDataDir } from './data-dir-lock'
import { PGliteDialect } from './pglite-dialect'
import { preparingPool } from './prepared-statements'
import { replicaMonitor, routingPool, type ReplicaMonitor } from './read-replica'
import { PG_TYPE, keepText, parseInt8 } from './type-parsers'

export type DatabaseKind = 'pglite' | 'postgres'

export interface DatabaseHandle {
  readonly db: Kysely<Database>
  readonly kind: DatabaseKind
  /** How far behind the replica is, when one is configured (`DATABASE_READ_URL`). */
  readonly replica?: ReplicaMonitor
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
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) })
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
  /** A streaming replica for the reads `onReplica` runs (CONTRACT §16 `DATABASE_READ_URL`). */
  replica?: { url: string; maxLagMs: number; logger: Logger }
}

function postgresPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, types: pgTypes })
  // A pool error on an idle client must not crash the process; the next query reconnects.
  pool.on('error', () => undefined)
  return pool
}

export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<DatabaseHandle> {
  const max = options.maxConnections ?? 10
  const primary = postgresPool(url, max)
  if (!options.replica) {
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparingPool(primary) }) })
    await sql`select 1`.execute(db)
    return { db, kind: 'postgres', close: () => db.destroy() }
  }
  const replica = postgresPool(options.replica.url, max)
  const monitor = replicaMonitor({ primary, replica, maxLagMs: options.replica.maxLagMs, logger: options.replica.logger })
  const pool = routingPool(preparingPool(primary), preparingPool(replica), monitor)
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  await sql`select 1`.execute(db)
  return { db, kind: 'postgres', replica: monitor, close: () => db.destroy() }
}
