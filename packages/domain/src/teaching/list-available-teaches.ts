import { ResultAsync } from 'neverthrow'
import type { PageOf, PageRequest } from '../shared'
import type { TeachingDeps } from './ports'
import type { AvailableTeach, AvailableTeachFilter } from './teach'

/**
 * Public: enabled teaches of live tutors who may be booked (`isBookable`: verified and
 * subscribed), oldest first. Visibility in search is a separate matter (a hidden tutor's
 * regulars still find what they teach).
 */
export function listAvailableTeaches(
  deps: Pick<TeachingDeps, 'uow'>,
  filter: AvailableTeachFilter,
  page: PageRequest,
): ResultAsync<PageOf<AvailableTeach>, never> {
  return ResultAsync.fromSafePromise(deps.uow.repos.teaches.listAvailable(filter, page))
}
