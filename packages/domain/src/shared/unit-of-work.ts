import type { Result } from 'neverthrow'

/** A method that takes a row lock: `lock`, `lockById`, `lockTutor`... */
type LockName = 'lock' | `lock${Capitalize<string>}`

/**
 * Repositories without their `lock*` methods, in nested bags too. A row lock taken outside
 * a transaction ends with its own statement and guards nothing, so it must not compile.
 */
export type WithoutLocks<Repos> = Repos extends (...args: never[]) => unknown
  ? Repos
  : { [K in keyof Repos as K extends LockName ? never : K]: WithoutLocks<Repos[K]> }

/**
 * Database access for a use case. `repos` work outside any transaction (reads, single
 * writes) and offer no locks; `run` does its work in one transaction, with every
 * repository, committed when the work returns Ok and rolled back when it returns Err or
 * throws.
 */
export interface UnitOfWork<Repos> {
  readonly repos: WithoutLocks<Repos>
  run<T, E>(work: (repos: Repos) => Promise<Result<T, E>>): Promise<Result<T, E>>
}
