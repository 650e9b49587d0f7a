import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../db/database'
import { verificationLocks, verificationRepository } from './verification.repository'

/** The verification context's part of the repository bag, outside a transaction: no locks. */
export function verificationRepositories(db: Kysely<Database>) {
  return {
    verifications: verificationRepository(db),
  }
}

/** The same part bound to a transaction: its repositories with the row locks they take there. */
export function withVerificationLocks(trx: Transaction<Database>, repos: ReturnType<typeof verificationRepositories>) {
  return {
    verifications: { ...repos.verifications, ...verificationLocks(trx) },
  }
}
