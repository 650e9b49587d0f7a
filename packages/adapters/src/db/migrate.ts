import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Migrator, type Kysely, type Migration, type MigrationProvider, type MigrationResult } from 'kysely'

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

/** Brings the schema up to date; safe to run from several instances at once (Kysely locks). */
export async function migrateToLatest<T>(db: Kysely<T>): Promise<string[]> {
  const { error, results } = await migrator(db).migrateToLatest()
  return unwrap(error, results)
}

/** Reverts the most recent migration. */
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
