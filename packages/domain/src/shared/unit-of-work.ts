import type { Result } from 'neverthrow'

/**
 * Database access for a use case. `repos` work outside any transaction (reads, single
 * writes); `run` does its work in one transaction, committed when the work returns Ok and
 * rolled back when it returns Err or throws.
 */
export interface UnitOfWork<Repos> {
  readonly repos: Repos
  run<T, E>(work: (repos: Repos) => Promise<Result<T, E>>): Promise<Result<T, E>>
}
