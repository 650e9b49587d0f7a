import { repositoryPart } from '../db/repository-bag'
import { fileRepository } from './file.repository'
import { mediaLocks, mediaRepository } from './media.repository'

/** The files context's part of the repository bag, and in a transaction the row locks its repositories take there. */
export const filesRepositories = repositoryPart({
  outside: (db) => ({
    files: fileRepository(db),
    media: mediaRepository(db),
  }),
  locks: (trx, repos) => ({
    media: { ...repos.media, ...mediaLocks(trx) },
  }),
  names: { files: true, media: true },
})
