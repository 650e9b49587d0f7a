import { ResultAsync } from 'neverthrow'
import type { Actor, Forbidden } from '../shared'
import type { PageOf, PageRequest } from '../shared'
import { listScope } from '../teaching'
import type { TutorLocationRecord } from './location'
import type { ScheduleDeps } from './ports'

/** The caller's location, as a list of at most one (internal staff: every tutor's). */
export function listLocations(
  deps: Pick<ScheduleDeps, 'uow'>,
  actor: Actor,
  query: { tutorId?: number; page: PageRequest },
): ResultAsync<PageOf<TutorLocationRecord>, Forbidden> {
  return listScope(actor, query.tutorId).asyncAndThen((scope) =>
    ResultAsync.fromSafePromise(deps.uow.repos.locations.list(scope, query.page)),
  )
}
