import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Where the package's data files are found (the contexts' live SQL, `<context>/sql/*.sql`, and
 * `geo/data/`): beside this module, which is `src/` when run from source and `dist/` when built
 * (the build copies the files there, keeping their paths).
 */
export const SHIPPED_FILES_ROOT = path.dirname(fileURLToPath(import.meta.url))
