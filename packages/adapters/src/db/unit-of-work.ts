import type { Kysely, Transaction } from 'kysely'
import type { Result } from 'neverthrow'
import type { UnitOfWork, WithoutLocks } from '@tutoring/domain/shared'
import type { Database } from './database'
import { idleStorage } from './idle-storage'

const ambient = idleStorage<Kysely<Database>>()

/**
 * The transaction a unit of work is running in this call chain, if any. The embedded
 * database is one session held by that transaction until it ends, so an adapter called from
 * inside it (the offline processor) must use it or wait for ever.
 */
export const ambientTransaction = (): Kysely<Database> | undefined => ambient.getStore()

class Rollback {
  constructor(readonly result: Result<unknown, unknown>) {}
}

/**
 * A UnitOfWork whose transaction rolls back on an Err result as well as on a throw. Its
 * repositories come in two sets: on the pool without locks, and in a transaction with them.
 * `ambient`: whether `ambientTransaction` names the transaction to what runs inside it. Only
 * the embedded database needs it; elsewhere it would keep an async hook on for every promise
 * while any transaction runs, which under load is always (a booking's CPU showed it).
 */
export function createUnitOfWork<Repos>(
  db: Kysely<Database>,
  repositories: { outside(db: Kysely<Database>): WithoutLocks<Repos>; inside(trx: Transaction<Database>): Repos },
  options: { ambient: boolean } = { ambient: true },
): UnitOfWork<Repos> {
  return {
    repos: repositories.outside(db),
    async run<T, E>(work: (repos: Repos) => Promise<Result<T, E>>): Promise<Result<T, E>> {
      try {
        return await db.transaction().execute((trx) => {
          const inside = async () => {
            const result = await work(repositories.inside(trx))
            if (result.isErr()) throw new Rollback(result)
            return result
          }
          return options.ambient ? ambient.run(trx, inside) : inside()
        })
      } catch (error) {
        if (error instanceof Rollback) return error.result as Result<T, E>
        throw error
      }
    },
  }
}
