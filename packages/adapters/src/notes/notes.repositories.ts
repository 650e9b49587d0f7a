import { repositoryPart } from '../db/repository-bag'
import { noteRepository } from './note.repository'

/** The notes context's part of the repository bag. */
export const notesRepositories = repositoryPart({
  outside: (db) => ({ notes: noteRepository(db) }),
  names: { notes: true },
})
