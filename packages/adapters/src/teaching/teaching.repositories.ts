import type { Kysely } from 'kysely'
import type { Database } from '../db/database'
import { teachRepository } from './teach.repository'

/** The teaching context's part of the repository bag, outside a transaction: no locks. */
export function teachingRepositories(db: Kysely<Database>) {
  return {
    teaches: teachRepository(db),
  }
}
