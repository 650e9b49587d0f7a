import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider, type MigrationResult } from 'kysely'
import { SHIPPED_FILES_ROOT } from '../shipped-files'
import { sqlStatements } from './sql-statements'

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')

/**
 * Kysely's FileMigrationProvider imports from inside node_modules, where neither tsx nor
 * vitest compiles TypeScript; importing from here lets both load the `.ts` migrations.
 */
const folderProvider: MigrationProvider = {
  async getMigrations() {
    const migrations: Record<string, Migration> = {}
    for (const file of (await readdir(MIGRATIONS_DIR)).sort()) {
      if (!/^\d{4}_\d{2}_\d{2}_\d{6}_[a-z0-9_]+\.(ts|js)$/.test(file)) continue
      const module = (await import(pathToFileURL(path.join(MIGRATIONS_DIR, file)).href)) as Migration
      migrations[file.replace(/\.(ts|js)$/, '')] = module
    }
    return migrations
  },
}

function migrator<T>(db: Kysely<T>): Migrator {
  return new Migrator({
    db,
    provider: folderProvider,
    // Branches merge migrations written in parallel; order by name, not by arrival.
    allowUnorderedMigrations: true,
  })
}

export class MigrationFailed extends Error {
  constructor(
    readonly migration: string | undefined,
    override readonly cause: unknown,
  ) {
    super(`migration ${migration ?? '(unknown)'} failed: ${cause instanceof Error ? cause.message : String(cause)}`)
  }
}

/**
 * Brings the schema up to date, then the live SQL (`applyRepeatableSql`); safe to run from
 * several instances at once (Kysely locks, and the live SQL takes its own lock). Answers the
 * migrations it applied.
 */
export async function migrateToLatest<T>(db: Kysely<T>): Promise<string[]> {
  const { error, results } = await migrator(db).migrateToLatest()
  const applied = unwrap(error, results)
  // A migration that ran may have (re)defined a live object with its historic body: then every file again.
  await applyRepeatableSql(db, await repeatableSqlFiles(), { all: applied.length > 0 })
  return applied
}

/**
 * Reverts the most recent migration. The live SQL stays as that migration's `down` leaves it;
 * the next `migrateToLatest` applies every file again.
 */
export async function migrateDown<T>(db: Kysely<T>): Promise<string[]> {
  const { error, results } = await migrator(db).migrateDown()
  return unwrap(error, results)
}

export type MigrationState = { name: string; appliedAt: Date | undefined }

/** Every migration known to this build, in order, with when it was applied (if it was). */
export async function migrationStatus<T>(db: Kysely<T>): Promise<MigrationState[]> {
  const migrations = await migrator(db).getMigrations()
  return migrations.map((m) => ({ name: m.name, appliedAt: m.executedAt }))
}

function unwrap(error: unknown, results: MigrationResult[] | undefined): string[] {
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')
    throw new MigrationFailed(failed?.migrationName, error)
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}

/** A file of live SQL: `create or replace` definitions, named `<context>/<file>.sql`. */
export type RepeatableSql = { name: string; text: string; checksum: string }

/** Every context's live SQL files (`<context>/sql/*.sql`), in name order, the order they are applied in. */
export async function repeatableSqlFiles(root = SHIPPED_FILES_ROOT): Promise<RepeatableSql[]> {
  const files: RepeatableSql[] = []
  const contexts = (await readdir(root, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name)
  for (const context of contexts.sort()) {
    const dir = path.join(root, context, 'sql')
    const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return []
      throw error
    })
    for (const name of names.filter((n) => n.endsWith('.sql')).sort()) {
      const text = await readFile(path.join(dir, name), 'utf8')
      files.push({ name: `${context}/${name}`, text, checksum: createHash('sha256').update(text).digest('hex') })
    }
  }
  return files
}

/**
 * The repeatable step: in one transaction, applies each file whose checksum differs from the one
 * `repeatable_sql` records (every file with `all`) and records it. Answers the files applied.
 * Migrations stay frozen: an object's live definition is its file's, whatever the migrations wrote.
 */
export async function applyRepeatableSql<T>(db: Kysely<T>, files: readonly RepeatableSql[], options: { all: boolean }): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    // Instances starting at once take turns; the later one finds the files recorded.
    await sql`select pg_advisory_xact_lock(hashtext('repeatable_sql'))`.execute(trx)
    const { rows } = await sql<{ name: string; checksum: string }>`select name, checksum from repeatable_sql`.execute(trx)
    const recorded = new Map(rows.map((row) => [row.name, row.checksum]))
    const due = files.filter((file) => options.all || recorded.get(file.name) !== file.checksum)
    for (const file of due) {
      try {
        for (const statement of sqlStatements(file.text)) await sql.raw(statement).execute(trx)
      } catch (error) {
        throw new MigrationFailed(file.name, error)
      }
      await sql`
        insert into repeatable_sql (name, checksum) values (${file.name}, ${file.checksum})
        on conflict (name) do update set checksum = excluded.checksum, applied_at = now()
      `.execute(trx)
    }
    return due.map((file) => file.name)
  })
}
