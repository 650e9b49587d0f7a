import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../db/database'
import { personalRecords } from './personal-records.repository'
import { ownerLocks } from './profile-owners.repository'

/** The profiles context's part of the repository bag, outside a transaction: no locks. */
export function profilesRepositories(db: Kysely<Database>) {
  return {
    personalRecords: personalRecords(db),
  }
}

/** The same part bound to a transaction: its repositories with the row locks they take there. */
export function withProfilesLocks(trx: Transaction<Database>, repos: ReturnType<typeof profilesRepositories>) {
  return {
    personalRecords: { ...repos.personalRecords, owners: { ...repos.personalRecords.owners, ...ownerLocks(trx) } },
  }
}
