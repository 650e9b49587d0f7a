import { repositoryPart } from '../db/repository-bag'
import { teachRepository } from './teach.repository'

/** The teaching context's part of the repository bag. */
export const teachingRepositories = repositoryPart({
  outside: (db) => ({
    teaches: teachRepository(db),
  }),
  names: { teaches: true },
})
