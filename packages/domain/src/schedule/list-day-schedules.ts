import { ResultAsync } from 'neverthrow'
import type { Actor, Forbidden } from '../shared'
import type { PageOf, PageRequest } from '../shared'
import { listScope } from '../teaching'
import type { DaySchedule } from './day-schedule'
import type { ScheduleDeps } from './ports'

/** The caller's weekly schedule entries (internal staff: every tutor's, or one tutor's). */
export function listDaySchedules(
  deps: Pick<ScheduleDeps, 'uow'>,
  actor: Actor,
  query: { tutorId?: number; page: PageRequest },
): ResultAsync<PageOf<DaySchedule>, Forbidden> {
  return listScope(actor, query.tutorId).asyncAndThen((scope) =>
    ResultAsync.fromSafePromise(deps.uow.repos.daySchedules.list(scope, query.page)),
  )
}
