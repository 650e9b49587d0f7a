import { createHash, randomBytes } from 'node:crypto'
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { sql, type Kysely } from 'kysely'
import pg from 'pg'
import type { Database } from '../db/database'
import { fromPGlite, openPostgres, PGLITE_EXTENSIONS, type DatabaseHandle, type DatabaseKind } from '../db/connect'
import { migrateToLatest, repeatableSqlFiles } from '../db/migrate'
import { seedReferenceData } from '../db/seed/seed-reference-data'

/** PGlite always; the server too when the environment names one (CI does). */
export function testDatabaseKinds(): DatabaseKind[] {
  return serverUrl() ? ['pglite', 'postgres'] : ['pglite']
}

function serverUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL
}

/** A fresh, migrated and seeded database of that kind; dropped again by `close`. */
export async function createTestDatabase(kind: DatabaseKind): Promise<DatabaseHandle> {
  if (kind === 'pglite') return fromPGlite(await PGlite.create({ extensions: PGLITE_EXTENSIONS, loadDataDir: await pgliteSnapshot() }))
  const url = serverUrl()
  if (!url) throw new Error('no DATABASE_URL or TEST_DATABASE_URL for a server test database')
  return createServerTestDatabase(url)
}

/** The URL of the server test database `db` is connected to, for processes of their own (a second server, the CLI). */
export async function serverDatabaseUrl(db: Kysely<Database>): Promise<string> {
  const url = serverUrl()
  if (!url) throw new Error('no DATABASE_URL or TEST_DATABASE_URL for a server test database')
  const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(db)
  return withDatabase(url, rows[0]!.name)
}

/** An empty database on the server (no schema at all), for tests of migrations and the CLI. */
export async function createEmptyServerDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const url = serverUrl()
  if (!url) throw new Error('no DATABASE_URL or TEST_DATABASE_URL for a server test database')
  const name = `tutoring_empty_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    await admin.query(`create database ${name}`)
  } finally {
    await admin.end()
  }
  return { url: withDatabase(url, name), drop: () => dropDatabase(url, name) }
}

const DB_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '../db')
const MIGRATIONS_DIR = path.join(DB_DIR, 'migrations')

/**
 * What a migrated and seeded database is made of: the migrations, the live SQL files and the
 * seed. Templates and snapshots are named by it, so a stale one is never cloned.
 */
async function schemaHash(): Promise<string> {
  const hash = createHash('sha256')
  for (const file of (await readdir(MIGRATIONS_DIR)).sort()) {
    hash.update(file).update(await readFile(path.join(MIGRATIONS_DIR, file)))
  }
  for (const file of await repeatableSqlFiles()) hash.update(file.name).update(file.checksum)
  for (const file of ['seed/reference-data.ts', 'seed/seed-reference-data.ts']) hash.update(await readFile(path.join(DB_DIR, file)))
  return hash.digest('hex').slice(0, 16)
}

async function templateName(): Promise<string> {
  return `tutoring_tpl_${await schemaHash()}`
}

let snapshot: Promise<Blob> | undefined

/**
 * PGlite's data directory after the migrations and the seed, as a tarball every PGlite test
 * database starts from (about 1 s, against 3 to 4 s to create, migrate and seed one). Built
 * once and kept in the temporary folder, named by the schema and PGlite's version, so test
 * processes (and runs) share it, as PostgreSQL's test databases share their template.
 */
function pgliteSnapshot(): Promise<Blob> {
  snapshot ??= (async () => {
    const file = path.join(tmpdir(), `tutoring-pglite-${await schemaHash()}-${await pgliteVersion()}.tar`)
    const stored = await readFile(file).catch(() => undefined)
    if (stored) return new Blob([stored])
    const built = await buildSnapshot()
    // Written aside and renamed, so a process that reads it never sees half a file.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`
    await writeFile(partial, new Uint8Array(await built.arrayBuffer()))
    await rename(partial, file).catch(() => rm(partial, { force: true }))
    return built
  })()
  return snapshot
}

async function buildSnapshot(): Promise<Blob> {
  const pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS })
  const handle = fromPGlite(pglite)
  try {
    await migrateToLatest(handle.db)
    await seedReferenceData(handle.db)
    return await pglite.dumpDataDir('none')
  } finally {
    await handle.close()
  }
}

/** The installed PGlite's version: another release may lay its data directory out differently. */
async function pgliteVersion(): Promise<string> {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite')
  const manifest = path.join(path.dirname(entry), '../package.json')
  return (JSON.parse(await readFile(manifest, 'utf8')) as { version: string }).version
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url)
  u.pathname = `/${database}`
  return u.toString()
}

async function createServerTestDatabase(url: string): Promise<DatabaseHandle> {
  const template = await templateName()
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    // Test workers race to build the template; one builds, the others wait on the lock.
    await admin.query('select pg_advisory_lock(727274)')
    try {
      const exists = await admin.query('select 1 from pg_database where datname = $1', [template])
      if (exists.rowCount === 0) await buildTemplate(admin, url, template)
    } finally {
      await admin.query('select pg_advisory_unlock(727274)')
    }
    const name = `tutoring_test_${randomBytes(6).toString('hex')}`
    await admin.query(`create database ${name} template ${template}`)
    const handle = await openPostgres(withDatabase(url, name), { maxConnections: 20 })
    return {
      ...handle,
      close: async () => {
        await handle.close()
        await dropDatabase(url, name)
      },
    }
  } finally {
    await admin.end()
  }
}

async function buildTemplate(admin: pg.Client, url: string, template: string): Promise<void> {
  const building = `${template}_building`
  await admin.query(`drop database if exists ${building}`)
  await admin.query(`create database ${building}`)
  const handle = await openPostgres(withDatabase(url, building), { maxConnections: 1 })
  try {
    await migrateToLatest(handle.db)
    await seedReferenceData(handle.db)
  } finally {
    await handle.close()
  }
  await admin.query(`alter database ${building} rename to ${template}`)
}

async function dropDatabase(url: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    await admin.query(`drop database if exists ${name} with (force)`)
  } finally {
    await admin.end()
  }
}
