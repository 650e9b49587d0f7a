import type { Kysely } from 'kysely'
import type { Database } from '../db/database'
import { tutorSearchRepository } from './tutor-search.repository'

/** The search context's part of the repository bag, outside a transaction: no locks. */
export function searchRepositories(db: Kysely<Database>) {
  return {
    tutorSearch: tutorSearchRepository(db),
  }
}
