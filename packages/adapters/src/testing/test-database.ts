import { createHash, randomBytes } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { sql, type Kysely } from 'kysely'
import pg from 'pg'
import type { Database } from '../db/database'
import { openPGlite, openPostgres, type DatabaseHandle, type DatabaseKind } from '../db/connect'
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
  if (kind === 'pglite') {
    const handle = await openPGlite()
    await migrateToLatest(handle.db)
    await seedReferenceData(handle.db)
    return handle
  }
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

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '../db/migrations')

/** The template's name changes whenever a migration or a live SQL file does, so a stale one is never cloned. */
async function templateName(): Promise<string> {
  const hash = createHash('sha256')
  for (const file of (await readdir(MIGRATIONS_DIR)).sort()) {
    hash.update(file).update(await readFile(path.join(MIGRATIONS_DIR, file)))
  }
  for (const file of await repeatableSqlFiles()) hash.update(file.name).update(file.checksum)
  hash.update(await readFile(path.join(MIGRATIONS_DIR, '../seed/reference-data.ts')))
  return `tutoring_tpl_${hash.digest('hex').slice(0, 16)}`
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
