import type { NoteFilesTable, NotesTable } from './notes.table'

/** The notes context's tables, as Kysely sees them; `Database` joins every context's. */
export interface NotesTables {
  note_files: NoteFilesTable
  notes: NotesTable
}
