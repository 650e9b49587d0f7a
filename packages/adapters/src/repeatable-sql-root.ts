import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Where the contexts' live SQL files (`<context>/sql/*.sql`) are found: beside this module, which
 * is `src/` when run from source and `dist/` when built (the build copies the files there, keeping
 * their paths). Applied by `migrateToLatest` (db/migrate.ts).
 */
export const REPEATABLE_SQL_ROOT = path.dirname(fileURLToPath(import.meta.url))
