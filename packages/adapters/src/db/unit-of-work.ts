import type { Kysely } from 'kysely'
import type { Result } from 'neverthrow'
import type { UnitOfWork } from '@tutoring/domain'
import type { Database } from './database'

class Rollback {
  constructor(readonly result: Result<unknown, unknown>) {}
}

/** A UnitOfWork whose transaction rolls back on an Err result as well as on a throw. */
export function createUnitOfWork<Repos>(
  db: Kysely<Database>,
  makeRepos: (executor: Kysely<Database>) => Repos,
): UnitOfWork<Repos> {
  return {
    repos: makeRepos(db),
    async run<T, E>(work: (repos: Repos) => Promise<Result<T, E>>): Promise<Result<T, E>> {
      try {
        return await db.transaction().execute(async (trx) => {
          const result = await work(makeRepos(trx))
          if (result.isErr()) throw new Rollback(result)
          return result
        })
      } catch (error) {
        if (error instanceof Rollback) return error.result as Result<T, E>
        throw error
      }
    },
  }
}
