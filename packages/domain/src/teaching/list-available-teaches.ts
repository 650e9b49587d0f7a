import { ResultAsync } from 'neverthrow'
import type { PageOf, PageRequest } from '../shared'
import type { TeachingDeps } from './ports'
import type { AvailableTeach, AvailableTeachFilter } from './teach'

/**
 * Public: enabled teaches of tutors whose account is live, newest first. Visibility in
 * search is a separate matter (a profile page still lists what its tutor teaches).
 */
export function listAvailableTeaches(
  deps: Pick<TeachingDeps, 'uow'>,
  filter: AvailableTeachFilter,
  page: PageRequest,
): ResultAsync<PageOf<AvailableTeach>, never> {
  return ResultAsync.fromSafePromise(deps.uow.repos.teaches.listAvailable(filter, page))
}
