import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../db/database'
import { fileRepository } from './file.repository'
import { mediaLocks, mediaRepository } from './media.repository'

/** The files context's part of the repository bag, outside a transaction: no locks. */
export function filesRepositories(db: Kysely<Database>) {
  return {
    files: fileRepository(db),
    media: mediaRepository(db),
  }
}

/** The same part bound to a transaction: its repositories with the row locks they take there. */
export function withFilesLocks(trx: Transaction<Database>, repos: ReturnType<typeof filesRepositories>) {
  return {
    media: { ...repos.media, ...mediaLocks(trx) },
  }
}
