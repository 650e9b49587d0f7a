import type { Kysely } from 'kysely'
import type { Database } from '../db/database'
import { tutorDirectory } from './tutor-directory.repository'

/** The tutors context's part of the repository bag, outside a transaction: no locks. */
export function tutorsRepositories(db: Kysely<Database>) {
  return {
    tutorDirectory: tutorDirectory(db),
  }
}
