import type { Kysely } from 'kysely'
import type { Database } from '../db/database'
import { catalogRepository } from './catalog.repository'

/** The catalog context's part of the repository bag, outside a transaction: no locks. */
export function catalogRepositories(db: Kysely<Database>) {
  return {
    catalog: catalogRepository(db),
  }
}
