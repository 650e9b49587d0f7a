import { ResultAsync } from 'neverthrow'
import type { Actor, Forbidden } from '../shared'
import type { PageOf, PageRequest } from '../shared'
import type { TeachingDeps } from './ports'
import type { Teach } from './teach'
import { listScope } from './tutor-records'

/** The caller's teaches (internal staff: every tutor's, or one tutor's). */
export function listTeaches(
  deps: Pick<TeachingDeps, 'uow'>,
  actor: Actor,
  query: { tutorId?: number; page: PageRequest },
): ResultAsync<PageOf<Teach>, Forbidden> {
  return listScope(actor, query.tutorId).asyncAndThen((scope) =>
    ResultAsync.fromSafePromise(deps.uow.repos.teaches.list(scope, query.page)),
  )
}
