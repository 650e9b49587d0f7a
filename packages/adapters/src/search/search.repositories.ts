import { repositoryPart } from '../db/repository-bag'
import { tutorSearchRepository } from './tutor-search.repository'

/** The search context's part of the repository bag. */
export const searchRepositories = repositoryPart({
  outside: (db) => ({
    tutorSearch: tutorSearchRepository(db),
  }),
  names: { tutorSearch: true },
})
