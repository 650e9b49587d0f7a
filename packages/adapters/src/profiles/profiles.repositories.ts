import { repositoryPart } from '../db/repository-bag'
import { personalRecords } from './personal-records.repository'
import { ownerLocks } from './profile-owners.repository'

/** The profiles context's part of the repository bag, and in a transaction the row locks its repositories take there. */
export const profilesRepositories = repositoryPart({
  outside: (db) => ({
    personalRecords: personalRecords(db),
  }),
  locks: (trx, repos) => ({
    personalRecords: { ...repos.personalRecords, owners: { ...repos.personalRecords.owners, ...ownerLocks(trx) } },
  }),
  names: { personalRecords: true },
})
