import { repositoryPart } from '../db/repository-bag'
import { tutorDirectory } from './tutor-directory.repository'

/** The tutors context's part of the repository bag. */
export const tutorsRepositories = repositoryPart({
  outside: (db) => ({
    tutorDirectory: tutorDirectory(db),
  }),
  names: { tutorDirectory: true },
})
