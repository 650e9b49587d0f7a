import { repositoryPart } from '../db/repository-bag'
import { verificationLocks, verificationRepository } from './verification.repository'

/** The verification context's part of the repository bag, and in a transaction the row locks its repositories take there. */
export const verificationRepositories = repositoryPart({
  outside: (db) => ({
    verifications: verificationRepository(db),
  }),
  locks: (trx, repos) => ({
    verifications: { ...repos.verifications, ...verificationLocks(trx) },
  }),
  names: { verifications: true },
})
