import type { Kysely } from 'kysely'
import type { Database } from '../db/database'
import { noteRepository } from './note.repository'

/** The notes context's part of the repository bag (it takes no locks of its own). */
export function notesRepositories(db: Kysely<Database>) {
  return { notes: noteRepository(db) }
}
