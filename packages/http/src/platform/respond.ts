import type { Result, ResultAsync } from 'neverthrow'
import type { DomainError } from '@tutoring/domain'
import { problemFromDomain } from './domain-errors'

/** The value of an Ok result; an Err becomes its problem answer through the one onError. */
export async function unwrap<T, E extends DomainError>(result: ResultAsync<T, E> | Promise<Result<T, E>>): Promise<T> {
  const settled = await result
  if (settled.isErr()) throw problemFromDomain(settled.error)
  return settled.value
}
