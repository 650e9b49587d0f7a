import { repositoryPart } from '../db/repository-bag'
import { catalogRepository } from './catalog.repository'

/** The catalog context's part of the repository bag. */
export const catalogRepositories = repositoryPart({
  outside: (db) => ({
    catalog: catalogRepository(db),
  }),
  names: { catalog: true },
})
