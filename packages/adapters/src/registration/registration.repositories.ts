import { repositoryPart } from '../db/repository-bag'
import { referenceLookups } from './reference-lookups.repository'
import { registrationRecords } from './registration.repository'

/** The registration context's part of the repository bag. */
export const registrationRepositories = repositoryPart({
  outside: (db) => ({
    registration: registrationRecords(db),
    reference: referenceLookups(db),
  }),
  names: { registration: true, reference: true },
})
