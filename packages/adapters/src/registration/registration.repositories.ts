import type { Kysely } from 'kysely'
import type { Database } from '../db/database'
import { referenceLookups } from './reference-lookups.repository'
import { registrationRecords } from './registration.repository'

/** The registration context's part of the repository bag, outside a transaction: no locks. */
export function registrationRepositories(db: Kysely<Database>) {
  return {
    registration: registrationRecords(db),
    reference: referenceLookups(db),
  }
}
