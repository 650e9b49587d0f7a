import { ResultAsync } from 'neverthrow'
import type { Actor, Forbidden } from '../shared'
import type { PageOf, PageRequest } from '../shared'
import { listScope } from '../teaching'
import type { TutorHoliday } from './holiday'
import type { ScheduleDeps } from './ports'

/** The caller's holidays by start date (internal staff: every tutor's, or one tutor's). */
export function listHolidays(
  deps: Pick<ScheduleDeps, 'uow'>,
  actor: Actor,
  query: { tutorId?: number; page: PageRequest },
): ResultAsync<PageOf<TutorHoliday>, Forbidden> {
  return listScope(actor, query.tutorId).asyncAndThen((scope) =>
    ResultAsync.fromSafePromise(deps.uow.repos.holidays.list(scope, query.page)),
  )
}
