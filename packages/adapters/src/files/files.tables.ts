import type { FilesTable } from './files.table'

/** The files context's tables, as Kysely sees them; `Database` joins every context's. */
export interface FilesTables {
  files: FilesTable
}
